/**
 * Signals by identity: the start time is re-read right before process.kill. A microsecond window
 * remains, which only pidfd_send_signal(2) (not in Node) would close.
 */
import { readStat } from '../observe/index.js';
import type { ProcIdentity } from '../observe/index.js';

export type SignalOutcome = 'sent' | 'gone' | 'mismatch' | 'zombie';

export function signalIdentity(id: ProcIdentity, signal: NodeJS.Signals | number): SignalOutcome {
  return signalIfSame(id, signal, readStat);
}

/** The same, with the process read by another means (the ps backend of harness/live-machine/): its start time and state, or null when it is gone. */
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
