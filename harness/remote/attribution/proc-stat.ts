import { readFileSync } from 'node:fs';
import type { ProcessIdentity } from '../types.js';

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  startTime: number;
}

/**
 * Reads /proc/PID/stat. The command name (field 2) may hold spaces and parentheses, so the
 * fields are counted from the LAST ')' (proc(5)). Field 3 is the state, 4 the ppid and 22 the
 * start time in clock ticks after boot. Returns undefined when the process is gone.
 */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3, so field N is rest[N - 3].
  const startTime = Number(rest[22 - 3]);
  if (!Number.isFinite(startTime)) return undefined;
  return { pid, state: rest[0], ppid: Number(rest[1]), startTime };
}

export function readIdentity(pid: number): ProcessIdentity | undefined {
  const stat = readProcStat(pid);
  return stat ? { pid, startTime: stat.startTime } : undefined;
}

/** The value of one variable in /proc/PID/environ (the environment the process started with). */
export function readEnvironVar(pid: number, name: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return undefined;
  }
  const prefix = `${name}=`;
  for (const entry of text.split('\0')) {
    if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  }
  return undefined;
}
