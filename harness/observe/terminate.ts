/**
 * One round of ending processes by identity: SIGTERM all, wait (event-driven, per-process exit
 * watch) up to termWaitMs, SIGKILL only those still alive, wait again. Every step is recorded
 * with its monotonic time. Used by contain() for one drill and by the stale sweep.
 */
import { monoNow } from '../util/clock.js';
import { pollExit, type ExitObservation } from './exit-watch.js';
import { identityKey, type ProcIdentity } from './identity.js';
import { readStat } from './proc.js';
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

export function step(record: ContainmentRecord, action: string): void {
  record.steps.push({ t: monoNow(), action });
}

export function describeExit(obs: ExitObservation): string {
  const status = obs.exitStatus
    ? obs.exitStatus.signal !== null
      ? `, signal ${obs.exitStatus.signal}`
      : `, code ${obs.exitStatus.code}`
    : '';
  return `exited (${obs.how}${status})`;
}

/** Wait for every record's process; returns the records that are still alive afterwards. */
export async function waitAll(records: ContainmentRecord[], timeoutMs: number, pollMs = 5): Promise<ContainmentRecord[]> {
  const seen = await Promise.all(records.map((r) => pollExit(r, { timeoutMs, intervalMs: pollMs })));
  const alive: ContainmentRecord[] = [];
  records.forEach((r, i) => {
    const obs = seen[i];
    if (obs) step(r, describeExit(obs));
    else alive.push(r);
  });
  return alive;
}

/** SIGTERM, wait, SIGKILL the rest, wait. Mutates and returns the records. */
export async function terminate(records: ContainmentRecord[], opts: TerminateOptions): Promise<ContainmentRecord[]> {
  const termed: ContainmentRecord[] = [];
  for (const r of records) {
    const before = readStat(r.pid);
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
  for (const r of termed) if (!afterTerm.includes(r)) r.endedBy = 'SIGTERM';

  const killed: ContainmentRecord[] = [];
  for (const r of afterTerm) {
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
  for (const r of killed) r.endedBy = afterKill.includes(r) ? 'survived' : 'SIGKILL';
  return records;
}

export function recordKey(r: ContainmentRecord): string {
  return identityKey(r);
}
