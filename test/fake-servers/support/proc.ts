/**
 * Process helpers of the fake-server tests, over the product's /proc reader
 * (harness/observe/proc.ts) and identities (harness/observe/identity.ts): a process is its
 * (pid, start time), and a zombie (state Z) counts as exited, because kill(pid, 0) still
 * succeeds on it. Tests read stat and environ with the reader itself.
 */
import type { ProcIdentity } from '../../../harness/observe/identity.js';
import { listPids, readEnviron, readStat } from '../../../harness/observe/proc.js';
import { signalIdentity } from '../../../harness/containment/signal.js';

/** Signals only after re-checking the identity; returns whether a signal was sent. */
export function signalByIdentity(id: ProcIdentity, signal: NodeJS.Signals): boolean {
  try {
    return signalIdentity(id, signal) === 'sent';
  } catch {
    return false; // EPERM: not ours to signal
  }
}

/** Pids from `pid` up to init, parent first. */
export function ancestorsOf(pid: number): number[] {
  const chain: number[] = [];
  let current = readStat(pid)?.ppid ?? 0;
  while (current > 0 && chain.length < 256) {
    chain.push(current);
    current = readStat(current)?.ppid ?? 0;
  }
  return chain;
}

/**
 * Running processes whose environment carries CRASH_DRILL_RUN=runId: every descendant of a
 * subject inherits it unless it clears its environment, so this finds survivors without
 * knowing their pids.
 */
export function findByRunId(runId: string): number[] {
  const found: number[] = [];
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    if (readEnviron(pid)?.get('CRASH_DRILL_RUN') !== runId) continue;
    const state = readStat(pid)?.state;
    if (state && state !== 'Z' && state !== 'X') found.push(pid);
  }
  return found;
}
