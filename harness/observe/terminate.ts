/**
 * One round of ending processes by identity: SIGTERM all, wait (event-driven, per-process exit
 * watch) up to termWaitMs, SIGKILL only those still alive, wait again. Every step is recorded
 * with its monotonic time. Used by contain() for one drill and by the stale sweep.
 */
import { monoNow } from '../util/clock.js';
import { pollExit, type ExitObservation } from './exit-watch.js';
import type { ProcIdentity } from './identity.js';
import { readCmdline, readStat } from './proc.js';
import { signalIdentity } from './signal.js';

export type EndedBy = 'already-gone' | 'SIGTERM' | 'SIGKILL' | 'survived';

export type ContainmentRecord = {
  pid: number;
  startTime: number;
  cmdline: string[];
  endedBy: EndedBy;
  /** True when SIGKILL (or cgroup.kill) was needed. */
  forced: boolean;
  steps: { t: number; action: string }[];
};

export type TerminateOptions = { termWaitMs: number; killWaitMs: number; pollMs?: number };

export function newRecord(id: ProcIdentity, cmdline: string[]): ContainmentRecord {
  return { pid: id.pid, startTime: id.startTime, cmdline: [...cmdline], endedBy: 'survived', forced: false, steps: [] };
}

export function step(record: ContainmentRecord, action: string, t: number = monoNow()): void {
  record.steps.push({ t, action });
}

export function describeExit(obs: ExitObservation): string {
  const status = obs.exitStatus
    ? obs.exitStatus.signal !== null
      ? `, signal ${obs.exitStatus.signal}`
      : `, code ${obs.exitStatus.code}`
    : '';
  return `exited (${obs.how}${status})`;
}

/** Wait for every record's process; the observation per record, null for one still alive. */
export async function waitAll(
  records: ContainmentRecord[],
  timeoutMs: number,
  pollMs = 5,
): Promise<Map<ContainmentRecord, ExitObservation | null>> {
  const seen = await Promise.all(records.map((r) => pollExit(r, { timeoutMs, intervalMs: pollMs })));
  const out = new Map<ContainmentRecord, ExitObservation | null>();
  records.forEach((r, i) => {
    const obs = seen[i] ?? null;
    // Stamped when the exit was noticed, not when the slowest of the batch was done.
    if (obs) step(r, describeExit(obs), obs.t);
    out.set(r, obs);
  });
  return out;
}

/** SIGTERM, wait, SIGKILL the rest, wait. Mutates and returns the records. */
export async function terminate(records: ContainmentRecord[], opts: TerminateOptions): Promise<ContainmentRecord[]> {
  const termed: ContainmentRecord[] = [];
  for (const r of records) {
    const before = readStat(r.pid);
    // argv as it is now: a process first seen between fork and exec still showed its parent's.
    const argv = before?.startTime === r.startTime ? readCmdline(r.pid) : null;
    if (argv && argv.length > 0) r.cmdline = argv;
    const out = signalIdentity(r, 'SIGTERM');
    step(r, `SIGTERM: ${out}`);
    if (out !== 'sent') {
      r.endedBy = 'already-gone';
      continue;
    }
    // A stopped process keeps SIGTERM pending until it is continued (signal(7)).
    if (before?.state === 'T') step(r, `SIGCONT (it was stopped): ${signalIdentity(r, 'SIGCONT')}`);
    termed.push(r);
  }
  const afterTerm = await waitAll(termed, opts.termWaitMs, opts.pollMs);
  const killed: ContainmentRecord[] = [];
  for (const [r, obs] of afterTerm) {
    if (obs) {
      // The wait status is the ground truth: a SIGKILL from someone else (another harness's
      // stale sweep, the OOM killer) during our wait must not be credited to our SIGTERM.
      const sigkill = obs.exitStatus?.signal === 'SIGKILL';
      r.endedBy = sigkill ? 'SIGKILL' : 'SIGTERM';
      r.forced = sigkill;
      continue;
    }
    const out = signalIdentity(r, 'SIGKILL');
    step(r, `SIGKILL: ${out}`);
    if (out === 'sent') {
      r.forced = true;
      killed.push(r);
    } else {
      // It ended between the end of the wait and the SIGKILL: the SIGTERM did it.
      r.endedBy = 'SIGTERM';
    }
  }
  const afterKill = await waitAll(killed, opts.killWaitMs, opts.pollMs);
  for (const [r, obs] of afterKill) r.endedBy = obs ? 'SIGKILL' : 'survived';
  return records;
}
