/**
 * Run ids, the run registry and the stale sweep. A harness registers each run it executes in
 * <registry>/runs/<runId>.json (registry.ts: a private folder of the user, checked before every
 * use) and holds a lock on that file for as long as it runs (run-lock.ts). A run is dead only
 * when that is proven: its registration is there and its lock is free, which the kernel makes so
 * when the harness dies, whatever PID namespace it ran in. Only the drill processes of a dead
 * run are swept (a harness that crashed, was killed, or whose machine slept through a timeout).
 * A marked process of a run with no registration this harness can read is never touched: it may
 * be another suite's, another registry's, another namespace's. A live run's processes are never
 * touched either, which is what lets several harnesses (vitest workers, CI jobs side by side, a
 * developer beside the suite) share one machine.
 */
import { closeSync, readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listDrillCgroups } from '../observe/cgroup.js';
import { ObserveError } from '../observe/errors.js';
import { pollExit } from '../observe/exit-watch.js';
import { identify, identityKey, isAlive, type ProcIdentity } from '../observe/identity.js';
import { DRILL_ENV, runIdOf, SUITE_ENV } from '../observe/run-ids.js';
import { isOwnFile, openOwnFile, readOwnFile, replaceOwnFileKeepOpen } from './own-files.js';
import { probeLocks, takeLock, whenLockFree } from './run-lock.js';
import { isKernelThread, listPids, readCmdline, readEnviron, readOwnerUid, readStat } from '../observe/proc.js';
import { checkedRunsDir, RegistryError, siblingRunsDirs } from './registry.js';
import { terminate } from '../containment/terminate.js';
import { newRecord, type ContainmentRecord, type EndedBy } from '../containment/record.js';

export type RunRegistration = { unregister(): void };
/**
 * A process a killed harness left. `containedBy`: 'sweep' when this run ended it; 'watchdog' when
 * the dead run's holder already had (harness/drill/holder/holder.pl), read from its record.
 */
export type StaleReport = { drillId: string; pid: number; startTime: number; cmdline: string[]; endedBy: EndedBy; containedBy?: 'sweep' | 'watchdog' };
export type SweepOptions = {
  /** Only consider runs this accepts (tests use it to stay inside their own runs). */
  runFilter?: (runId: string) => boolean;
  termWaitMs?: number;
  killWaitMs?: number;
  /**
   * Contain only: leave registry files and watchdog records for the next run to read (the
   * run's own sentinel, harness/run/sentinel-main.ts, sweeps its dead run this way).
   */
  keepRegistration?: boolean;
};

const SAFE_ID = /^[A-Za-z0-9._-]+$/;

/**
 * One registry per user (registry.ts): a harness can only vouch for, and only sweep, its own
 * user's drills, and every harness of the user must read the same registry, or one takes the
 * others' live drills for a dead run's and ends them. Checked (and made 0700 when missing) at
 * every call; throws RegistryError when the folder is not the user's own.
 */
export function runsDir(): string {
  return checkedRunsDir();
}

/** The processes a sweep may end: its own user's, whatever the harness's privileges. */
function ownedBySelf(pid: number): boolean {
  if (typeof process.getuid !== 'function') return true;
  return readOwnerUid(pid) === process.getuid();
}

/** Where a run's holders record what their watchdog ended when the harness died. */
export function watchdogFile(runId: string): string {
  return runFile(runId, WATCHDOG);
}

const WATCHDOG = '.watchdog.jsonl';

/** A file of one run in the registry, <runs>/<runId><suffix>: its registration, its watchdog records, its engine mark. */
export function runFile(runId: string, suffix: string): string {
  if (!SAFE_ID.test(runId)) throw new ObserveError('OBSERVE_BAD_RUN_ID', `run id ${JSON.stringify(runId)} has characters outside [A-Za-z0-9._-]`);
  return join(runsDir(), `${runId}${suffix}`);
}

/** What the watchdogs of a dead run recorded; the file is removed once read. */
function takeWatchdogRecords(runId: string): StaleReport[] {
  const file = watchdogFile(runId);
  // Only a regular file of this user is believed (own-files.ts); anything else is left alone.
  const text = readOwnFile(file);
  if (text === null) return [];
  try {
    unlinkSync(file);
  } catch {
    return [];
  }
  const rows: StaleReport[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as { drillId?: unknown; pid?: unknown; startTime?: unknown; cmdline?: unknown; endedBy?: unknown };
      if (typeof r.drillId !== 'string' || typeof r.pid !== 'number' || typeof r.startTime !== 'number') continue;
      const endedBy = r.endedBy === 'SIGTERM' || r.endedBy === 'SIGKILL' || r.endedBy === 'already-gone' ? r.endedBy : 'survived';
      // A holder and the run's sentinel may both have ended the same process: report it once.
      const key = `${r.drillId}:${r.pid}:${r.startTime}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({
        drillId: r.drillId,
        pid: r.pid,
        startTime: r.startTime,
        cmdline: Array.isArray(r.cmdline) ? r.cmdline.map(String) : [],
        endedBy,
        containedBy: 'watchdog',
      });
    } catch {
      // a line cut short when the holder itself was killed: nothing to report from it
    }
  }
  return rows;
}

function registryFile(runId: string): string {
  return runFile(runId, '.json');
}

/** A run's state: its harness runs (`live`), is proven gone (`dead`), or no registration of it can be read here. */
export type RunState = 'live' | 'dead' | 'unregistered';

export function registerRun(runId: string): RunRegistration {
  const file = registryFile(runId);
  const self = identify(process.pid);
  if (self === null) throw new ObserveError('OBSERVE_REGISTRY_WRITE', "cannot read the harness's own /proc/self/stat");
  let fd: number;
  try {
    // Locked before it is renamed into place: no sweep ever finds a live run's file unlocked.
    fd = replaceOwnFileKeepOpen(file, (tmp) => {
      const lock = takeLock(tmp);
      const suite = process.env[SUITE_ENV];
      return JSON.stringify({
        runId,
        pid: self.pid,
        startTime: self.startTime,
        registeredAt: new Date().toISOString(),
        ...(lock ? { lock: 'flock' } : {}),
        // Whose run it is, for whoever started it (run-ids.ts SUITE_ENV); never read by a sweep.
        ...(suite ? { suite } : {}),
      });
    });
  } catch (err) {
    throw new ObserveError('OBSERVE_REGISTRY_WRITE', `cannot write the run registry file ${file}`, { cause: err });
  }
  let held = true;
  return {
    unregister() {
      if (!held) return;
      held = false;
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
      // The name first, then the lock: a sweep never finds this run's file with its lock free.
      closeSync(fd);
    },
  };
}

type Registration = { harness: ProcIdentity | null; lock: boolean };

function parseRegistration(text: string): Registration | null {
  try {
    const data = JSON.parse(text) as { pid?: unknown; startTime?: unknown; lock?: unknown };
    const harness = typeof data.pid === 'number' && typeof data.startTime === 'number' ? { pid: data.pid, startTime: data.startTime } : null;
    return { harness, lock: data.lock === 'flock' };
  } catch {
    return null; // garbled: not a registration we wrote
  }
}

/** Where a run's registration may be: here, or in the user's other registry locations (registry.ts siblingRunsDirs()). */
function registrationFiles(runId: string): string[] {
  let file: string;
  try {
    file = registryFile(runId);
  } catch (err) {
    if (err instanceof RegistryError) throw err;
    return []; // a bad id: never registered
  }
  return [file, ...siblingRunsDirs().map((dir) => join(dir, `${runId}.json`))];
}

/**
 * The state of each run, from its registrations that are regular files of this user. A locked
 * registration is live while its lock is held and dead once it is free; when the lock cannot be
 * probed (no perl here) it is taken for live, since it is not proven dead. A registration without
 * a lock (written where there was no perl, or by an earlier version) is judged by its harness's
 * pid and start time, which only this PID namespace's /proc can tell. One perl probes them all.
 * Throws RegistryError when the registry is not private: a sweep must not take every run for
 * dead because it could not read.
 */
export function runStates(runIds: Iterable<string>): Map<string, RunState> {
  const states = new Map<string, RunState>();
  const note = (runId: string, state: RunState): void => {
    const was = states.get(runId);
    if (was === 'live' || (was === 'dead' && state === 'unregistered')) return;
    states.set(runId, state);
  };
  const opened: number[] = [];
  const locked: Array<{ runId: string; fd: number }> = [];
  try {
    for (const runId of new Set(runIds)) {
      note(runId, 'unregistered');
      for (const candidate of registrationFiles(runId)) {
        const file = openOwnFile(candidate);
        if (file === null) continue;
        opened.push(file.fd);
        const reg = parseRegistration(file.text);
        if (reg === null) continue;
        if (reg.lock) locked.push({ runId, fd: file.fd });
        else note(runId, reg.harness !== null && isAlive(reg.harness) ? 'live' : 'dead');
      }
    }
    const probed = locked.length > 0 ? probeLocks(locked.map((l) => l.fd)) : [];
    for (const [i, { runId }] of locked.entries()) note(runId, probed?.[i] === 'free' ? 'dead' : 'live');
  } finally {
    for (const fd of opened) closeSync(fd);
  }
  return states;
}

export function isRunLive(runId: string): boolean {
  return runStates([runId]).get(runId) === 'live';
}

/**
 * Resolves once the run's harness is proven gone, or after `timeoutMs` (the run's sentinel, whose
 * pipe from the harness closes a moment before the kernel drops the harness's lock): waits on the
 * lock itself, or polls the harness's pid for a registration without one. At once when the run is
 * not registered here.
 */
export async function whenRunEnds(runId: string, timeoutMs: number): Promise<void> {
  const file = openOwnFile(registryFile(runId));
  if (file === null) return;
  try {
    const reg = parseRegistration(file.text);
    if (reg?.lock) await whenLockFree(file.fd, timeoutMs);
    else if (reg?.harness) await pollExit(reg.harness, { intervalMs: 5, timeoutMs });
  } finally {
    closeSync(file.fd);
  }
}

/** This process and its ancestors: never swept, whatever their environment says. */
function selfAndAncestors(): Set<number> {
  const out = new Set<number>();
  let pid = process.pid;
  while (pid > 0 && !out.has(pid)) {
    out.add(pid);
    pid = readStat(pid)?.ppid ?? 0;
  }
  return out;
}

export async function sweepStale(opts: SweepOptions = {}): Promise<StaleReport[]> {
  runsDir(); // refused (RegistryError) before anything is read or ended
  const accept = opts.runFilter ?? (() => true);
  const spared = selfAndAncestors();

  // Every marked process of a run this sweep may consider, then one look at those runs' locks.
  const marked: Array<{ drillId: string; id: ProcIdentity }> = [];
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat === null || isKernelThread(stat) || stat.state === 'Z' || !ownedBySelf(pid) || spared.has(pid)) continue;
    const drillId = readEnviron(pid)?.get(DRILL_ENV);
    if (drillId && accept(runIdOf(drillId))) marked.push({ drillId, id: stat });
  }
  const candidateCgroups = listDrillCgroups().filter((cg) => accept(runIdOf(cg.drillId)));
  const states = runStates([...marked.map((m) => runIdOf(m.drillId)), ...candidateCgroups.map((cg) => runIdOf(cg.drillId))]);
  // Only a registered run proven dead: a run with no registration here is not ours to judge.
  const dead = (drillId: string): boolean => states.get(runIdOf(drillId)) === 'dead';

  const found = new Map<string, { drillId: string; record: ContainmentRecord }>();
  const add = (drillId: string, id: ProcIdentity): void => {
    if (spared.has(id.pid) || found.has(identityKey(id))) return;
    found.set(identityKey(id), { drillId, record: newRecord(id, readCmdline(id.pid) ?? []) });
  };
  for (const m of marked) if (dead(m.drillId)) add(m.drillId, m.id);
  const cgroups = candidateCgroups.filter((cg) => dead(cg.drillId));
  for (const cg of cgroups) {
    for (const pid of cg.pids()) {
      const id = identify(pid);
      if (id) add(cg.drillId, id);
    }
  }

  const rows = [...found.values()];
  await terminate(
    rows.map((r) => r.record),
    { termWaitMs: opts.termWaitMs ?? 1000, killWaitMs: opts.killWaitMs ?? 1000 },
  );

  for (const cg of cgroups) {
    // Anything inside that slipped the identity scan (born meanwhile) goes with the cgroup.
    if (cg.populated()) cg.kill();
    await waitEmpty(cg, opts.killWaitMs ?? 1000);
    cg.remove();
  }
  let watched: StaleReport[] = [];
  if (!opts.keepRegistration) {
    watched = deadWatchdogRuns(accept).flatMap(takeWatchdogRecords);
    // A dead run with a process that outlived its SIGKILL stays registered, so the next sweep tries again.
    const survived = new Set(rows.filter((r) => r.record.endedBy === 'survived').map((r) => runIdOf(r.drillId)));
    removeDeadRegistrations((runId) => accept(runId) && !survived.has(runId));
  }

  const swept: StaleReport[] = rows.map(({ drillId, record }) => ({
    drillId,
    pid: record.pid,
    startTime: record.startTime,
    cmdline: record.cmdline,
    endedBy: record.endedBy,
    containedBy: 'sweep',
  }));
  return [...watched, ...swept];
}

function waitEmpty(cg: { onEmpty(cb: () => void): () => void }, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe();
      resolve();
    }, timeoutMs);
    const unsubscribe = cg.onEmpty(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function removeRegistry(runId: string): void {
  try {
    unlinkSync(registryFile(runId));
  } catch {
    // not registered
  }
}

/** Runs whose watchdog left a record and whose harness is gone. */
function deadWatchdogRuns(accept: (runId: string) => boolean): string[] {
  return deadRunsWith(WATCHDOG, accept);
}

/** The runs of the registry files ending in `suffix` (runFile()) that `accept` takes. */
function runsWith(suffix: string, accept: (runId: string) => boolean): string[] {
  const dir = runsDir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(suffix) && isOwnFile(join(dir, name)))
    .map((name) => name.slice(0, -suffix.length))
    .filter((runId) => SAFE_ID.test(runId) && accept(runId));
}

/**
 * The runs that `accept` takes, with a registry file ending in `suffix` (runFile()) and no live
 * harness: dead, or no longer registered. These are files the run kept in this registry (its
 * watchdog record, its engine mark, its trust files), not processes: a run that left them here
 * registered here.
 */
export function deadRunsWith(suffix: string, accept: (runId: string) => boolean = () => true): string[] {
  const runs = runsWith(suffix, accept);
  const states = runStates(runs);
  return runs.filter((runId) => states.get(runId) !== 'live');
}

/** Registrations proven dead, even when no process of theirs is left. */
function removeDeadRegistrations(accept: (runId: string) => boolean): void {
  const runs = runsWith('.json', accept);
  const states = runStates(runs);
  for (const runId of runs) if (states.get(runId) === 'dead') removeRegistry(runId);
}
