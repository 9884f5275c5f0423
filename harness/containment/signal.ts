/**
 * Signals by identity. The start time is re-read right before process.kill so a reused pid is
 * never hit. A window of microseconds remains between the check and the kill; closing it fully
 * needs pidfd_send_signal(2), which Node does not expose. Reuse inside that window would need
 * the target to exit, be reaped and the pid space to wrap in between.
 */
import { readStat } from '../observe/index.js';
import type { ProcIdentity } from '../observe/index.js';

export type SignalOutcome = 'sent' | 'gone' | 'mismatch' | 'zombie';

export function signalIdentity(id: ProcIdentity, signal: NodeJS.Signals | number): SignalOutcome {
  return signalIfSame(id, signal, readStat);
}

/**
 * The same, with the process read by another means (the ps backend of harness/live-machine/): its
 * start time and state, or null when it is gone.
 */
export function signalIfSame(
  id: ProcIdentity,
  signal: NodeJS.Signals | number,
  read: (pid: number) => { startTime: number; state: string } | null,
): SignalOutcome {
  const stat = read(id.pid);
  if (stat === null || stat.state === 'X') return 'gone';
  if (stat.startTime !== id.startTime) return 'mismatch';
  // A zombie cannot be signalled into anything; it is already dead.
  if (stat.state === 'Z') return 'zombie';
  try {
    process.kill(id.pid, signal);
    return 'sent';
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
    throw err;
  }
}
