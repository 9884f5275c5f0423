/**
 * Run ids, the run registry and the stale sweep. A harness registers each run it executes in
 * <registry>/runs/<runId>.json with its own identity (registry.ts: a private folder of the user,
 * checked before every use). A drill process whose run has no live registered harness was left
 * behind by a harness that died (crashed, was killed, or its machine slept through a timeout):
 * the sweep ends it. A run with no registration found at all (registered in a registry this
 * harness does not read) is judged by the harness its processes name (CRASH_DRILL_HARNESS,
 * observe/run-ids.ts) instead: ended only once that harness is dead. A live run's processes
 * are never touched, which is what lets several harnesses (vitest workers) share one machine.
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listDrillCgroups } from '../observe/cgroup.js';
import { ObserveError } from '../observe/errors.js';
import { identify, identityKey, isAlive, type ProcIdentity } from '../observe/identity.js';
import { DRILL_ENV, HARNESS_ENV, parseHarnessMark, runIdOf } from '../observe/run-ids.js';
import { isOwnFile, readOwnFile, replaceOwnFile } from './own-files.js';
import { isKernelThread, listPids, readCmdline, readEnviron, readOwnerUid, readStat } from '../observe/proc.js';
import { checkedRunsDir, RegistryError, siblingRunsDirs } from './registry.js';
import { newRecord, terminate, type ContainmentRecord, type EndedBy } from '../observe/terminate.js';

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

export function registerRun(runId: string): RunRegistration {
  const file = registryFile(runId);
  const self = identify(process.pid);
  if (self === null) throw new ObserveError('OBSERVE_REGISTRY_WRITE', "cannot read the harness's own /proc/self/stat");
  try {
    // Made exclusively, then renamed into place: a concurrent sweep never reads half a file.
    replaceOwnFile(file, JSON.stringify({ runId, pid: self.pid, startTime: self.startTime, registeredAt: new Date().toISOString() }));
  } catch (err) {
    throw new ObserveError('OBSERVE_REGISTRY_WRITE', `cannot write the run registry file ${file}`, { cause: err });
  }
  return {
    unregister() {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
}

/**
 * The harness a run registered (pid and start time), or null when there is no registration that
 * is a regular file of this user: here, or in the user's other registry locations
 * (registry.ts siblingRunsDirs()). Throws RegistryError when the registry is not private: a
 * sweep must not take every run for dead because it could not read.
 */
export function registeredHarness(runId: string): ProcIdentity | null {
  let file: string;
  try {
    file = registryFile(runId);
  } catch (err) {
    if (err instanceof RegistryError) throw err;
    return null; // a bad id: never registered
  }
  for (const candidate of [file, ...siblingRunsDirs().map((dir) => join(dir, `${runId}.json`))]) {
    const text = readOwnFile(candidate);
    if (text === null) continue;
    try {
      const data = JSON.parse(text) as { pid?: unknown; startTime?: unknown };
      if (typeof data.pid === 'number' && typeof data.startTime === 'number') return { pid: data.pid, startTime: data.startTime };
    } catch {
      // garbled: no live harness from this file
    }
  }
  return null;
}

export function isRunLive(runId: string): boolean {
  const harness = registeredHarness(runId);
  return harness !== null && isAlive(harness);
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
  /** Per run: true when its registered harness lives, false when it is dead, null when no registration is found. */
  const liveness = new Map<string, boolean | null>();
  // A run with no registration this harness can read is judged by the harness its processes name
  // (run-ids.ts HARNESS_ENV): left alone while that harness lives (a run in another registry).
  const stale = (drillId: string, harness: () => string | undefined): boolean => {
    const runId = runIdOf(drillId);
    if (!accept(runId)) return false;
    let live = liveness.get(runId);
    if (live === undefined) {
      const registered = registeredHarness(runId);
      liveness.set(runId, (live = registered === null ? null : isAlive(registered)));
    }
    if (live !== null) return !live;
    const named = parseHarnessMark(harness());
    return named === null || !isAlive(named);
  };

  const spared = selfAndAncestors();
  const found = new Map<string, { drillId: string; record: ContainmentRecord }>();
  const add = (drillId: string, id: ProcIdentity): void => {
    if (spared.has(id.pid) || found.has(identityKey(id))) return;
    found.set(identityKey(id), { drillId, record: newRecord(id, readCmdline(id.pid) ?? []) });
  };

  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat === null || isKernelThread(stat) || stat.state === 'Z' || !ownedBySelf(pid)) continue;
    const environ = readEnviron(pid);
    const drillId = environ?.get(DRILL_ENV);
    if (drillId && stale(drillId, () => environ?.get(HARNESS_ENV))) add(drillId, stat);
  }
  // A cgroup's harness is the one its members name (its client and server carry the mark).
  const cgroups = listDrillCgroups().filter((cg) =>
    stale(cg.drillId, () =>
      cg
        .pids()
        .map((pid) => readEnviron(pid)?.get(HARNESS_ENV))
        .find((mark) => mark !== undefined),
    ),
  );
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
    for (const runId of liveness.keys()) {
      if (liveness.get(runId) === false) removeRegistry(runId);
    }
    watched = deadWatchdogRuns(accept).flatMap(takeWatchdogRecords);
    removeDeadRegistrations(accept);
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

/** The runs that `accept` takes, with a registry file ending in `suffix` (runFile()) and no live harness. */
export function deadRunsWith(suffix: string, accept: (runId: string) => boolean = () => true): string[] {
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
    .filter((runId) => SAFE_ID.test(runId) && accept(runId) && !isRunLive(runId));
}

/** Registry files whose harness is gone, even when no process of theirs is left. */
function removeDeadRegistrations(accept: (runId: string) => boolean): void {
  const dir = runsDir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const runId = name.slice(0, -'.json'.length);
    if (SAFE_ID.test(runId) && accept(runId) && !isRunLive(runId)) removeRegistry(runId);
  }
}
