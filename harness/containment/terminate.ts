/** One round of ending processes by identity: SIGTERM, wait up to termWaitMs, SIGKILL the rest, wait; each a step (step.ts). */
import { pollExit, type ExitObservation } from '../observe/index.js';
import { readCmdline, readStat } from '../observe/index.js';
import { exitStep, step, type ContainmentRecord } from './record.js';
import { signalIdentity } from './signal.js';

export type TerminateOptions = { termWaitMs: number; killWaitMs: number; pollMs?: number };

/** Wait for every record's process; the observation per record, null for one still alive. */
export async function waitAll(records: ContainmentRecord[], timeoutMs: number, pollMs = 5): Promise<Map<ContainmentRecord, ExitObservation | null>> {
  const seen = await Promise.all(records.map((r) => pollExit(r, { timeoutMs, intervalMs: pollMs })));
  const out = new Map<ContainmentRecord, ExitObservation | null>();
  records.forEach((r, i) => {
    const obs = seen[i] ?? null;
    // Stamped when the exit was noticed, not when the slowest of the batch was done.
    if (obs) step(r, exitStep(obs), obs.t);
    out.set(r, obs);
  });
  return out;
}

/** SIGTERM, wait, SIGKILL the rest, wait. Mutates and returns the records. */
export async function terminate(records: ContainmentRecord[], opts: TerminateOptions): Promise<ContainmentRecord[]> {
  const termed: ContainmentRecord[] = [];
  // Alive before the first signal: a child that dies with its parent was ended by containment, not
  // "already gone". argv as it is now: one first seen between fork and exec showed its parent's.
  const before = records.map((r) => {
    const stat = readStat(r.pid);
    const alive = stat !== null && stat.startTime === r.startTime && stat.state !== 'Z' && stat.state !== 'X';
    const argv = alive ? readCmdline(r.pid) : null;
    if (argv && argv.length > 0) r.cmdline = argv;
    return { r, alive, stopped: alive && stat?.state === 'T' };
  });
  for (const { r, alive, stopped } of before) {
    const out = signalIdentity(r, 'SIGTERM');
    step(r, { kind: 'signal', signal: 'SIGTERM', result: out });
    if (out !== 'sent') {
      // Gone between the look above and its signal: it ended in this round (its exit is waited below).
      if (alive) termed.push(r);
      else r.endedBy = 'already-gone';
      continue;
    }
    // A stopped process keeps SIGTERM pending until it is continued (signal(7)).
    if (stopped) step(r, { kind: 'signal', signal: 'SIGCONT', result: signalIdentity(r, 'SIGCONT'), reason: 'stopped' });
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
    step(r, { kind: 'signal', signal: 'SIGKILL', result: out });
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
