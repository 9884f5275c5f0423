/**
 * The stale sweep: ends the drill processes of a run proven dead (registration.ts: registered, lock
 * free). A run this harness cannot see registered, or a live one, is never touched, so several
 * harnesses can share one machine.
 */
import { readdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { redactCommandLine } from '../util/secrets.js';
import { listDrillCgroups } from '../observe/index.js';
import { identify, identityKey, type ProcIdentity } from '../observe/index.js';
import { DRILL_ENV, runIdOf } from '../observe/index.js';
import { isOwnFile, readOwnFile } from './own-files.js';
import { registryFile, runFile, runStates, SAFE_ID } from './registration.js';
import { runsDir } from './registry.js';
import { isKernelThread, listPids, readCmdline, readEnviron, readOwnerUid, readStat } from '../observe/index.js';
import { terminate } from '../containment/terminate.js';
import { newRecord, type ContainmentRecord, type EndedBy } from '../containment/record.js';

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
  /** Contain only, leaving registry files and watchdog records for the next run (harness/run/sentinel-main.ts). */
  keepRegistration?: boolean;
};

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
        cmdline: redactCommandLine(Array.isArray(r.cmdline) ? r.cmdline.map(String) : []),
        endedBy,
        containedBy: 'watchdog',
      });
    } catch {
      // a line cut short when the holder itself was killed: nothing to report from it
    }
  }
  return rows;
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
    await cg.whenEmpty(opts.killWaitMs ?? 1000);
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
    cmdline: redactCommandLine(record.cmdline),
    endedBy: record.endedBy,
    containedBy: 'sweep',
  }));
  return [...watched, ...swept];
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

/** The runs `accept` takes with a registry file ending in `suffix` and no live harness. */
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
