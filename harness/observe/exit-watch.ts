/** A per-process exit watch polling /proc/PID/stat: Node has no pidfd and cannot wait(2) for another's child. A zombie counts as exited. */
import { monoNow } from '../util/clock.js';
import { decodeWaitStatus, type ExitStatus } from './exit-status.js';
import type { ProcIdentity } from './identity.js';
import { readStat } from './proc.js';

export type ExitObservation = {
  t: number;
  how: 'zombie' | 'gone';
  /** Decoded from stat field 52 while the process was a zombie. */
  exitStatus?: ExitStatus;
};

/** One look: the observation if it has exited, null if it still lives. */
export function checkExit(id: ProcIdentity): ExitObservation | null {
  const stat = readStat(id.pid);
  const t = monoNow();
  if (stat === null || stat.startTime !== id.startTime || stat.state === 'X') return { t, how: 'gone' };
  if (stat.state === 'Z') return { t, how: 'zombie', exitStatus: decodeWaitStatus(stat.exitCode) };
  return null;
}

export type PollExitOptions = {
  intervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
};

export function pollExit(id: ProcIdentity, opts: PollExitOptions = {}): Promise<ExitObservation | null> {
  const intervalMs = Math.max(1, opts.intervalMs ?? 2);
  const deadline = opts.timeoutMs === undefined ? Infinity : monoNow() + opts.timeoutMs;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (value: ExitObservation | null): void => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => finish(null);
    const tick = (): void => {
      const seen = checkExit(id);
      if (seen) finish(seen);
      else if (monoNow() >= deadline) finish(null);
      else timer = setTimeout(tick, intervalMs);
    };
    if (opts.signal?.aborted) return finish(null);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    tick();
  });
}
