/** Process identity is (pid, start time): a pid alone can be reused by an unrelated process once the first one is reaped. Start time is field 22 of /proc/PID/stat. */
import { readStat } from './proc.js';

export type ProcIdentity = { pid: number; startTime: number };

export type ProcState = 'alive' | 'zombie' | 'gone';

export function identify(pid: number): ProcIdentity | null {
  const stat = readStat(pid);
  return stat === null ? null : { pid: stat.pid, startTime: stat.startTime };
}

export function sameIdentity(a: ProcIdentity, b: ProcIdentity): boolean {
  return a.pid === b.pid && a.startTime === b.startTime;
}

/** A stable map key for an identity. */
export function identityKey(id: ProcIdentity): string {
  return `${id.pid}:${id.startTime}`;
}

/**
 * 'zombie' counts as exited: kill(pid, 0) still succeeds on a zombie, so the state letter in
 * /proc/PID/stat is the only honest answer. 'X' (dead) is the instant before the entry goes.
 */
export function procState(id: ProcIdentity): ProcState {
  const stat = readStat(id.pid);
  if (stat === null || stat.startTime !== id.startTime) return 'gone';
  if (stat.state === 'Z') return 'zombie';
  if (stat.state === 'X') return 'gone';
  return 'alive';
}

export function isAlive(id: ProcIdentity): boolean {
  return procState(id) === 'alive';
}
