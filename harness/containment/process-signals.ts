/**
 * Signals and exit waits by identity for either live-machine backend: /proc uses signal.ts and
 * exit-watch.ts; ps does the same, coarser (whole-second start times), never by name.
 */
import { pollExit } from '../observe/index.js';
import type { ProcIdentity } from '../observe/index.js';
import type { ProcessTable } from './process-table.js';
import { signalIdentity, signalIfSame, type SignalOutcome } from './signal.js';

export function signalChecked(backend: ProcessTable, id: ProcIdentity, signal: NodeJS.Signals): SignalOutcome {
  if (backend.name === 'proc') return signalIdentity(id, signal);
  return signalIfSame(id, signal, (pid) => backend.process(pid));
}

export function isGone(backend: ProcessTable, id: ProcIdentity): boolean {
  const now = backend.process(id.pid);
  return now === null || now.startTime !== id.startTime || now.state === 'Z' || now.state === 'X';
}

/** Waits until the process is gone (true) or the timeout passes (false). */
export async function waitGone(backend: ProcessTable, id: ProcIdentity, timeoutMs: number): Promise<boolean> {
  if (backend.name === 'proc') return (await pollExit(id, { timeoutMs, intervalMs: 5 })) !== null;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (isGone(backend, id)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
