/**
 * Reading /proc for tests: identity is (pid, start time), field 22 of /proc/PID/stat, and a
 * zombie (state Z) counts as exited, because kill(pid, 0) still succeeds on it.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Field 22, in clock ticks since boot: with the pid, the process's identity. */
  startTime: string;
}

export interface ProcIdentity {
  pid: number;
  startTime: string;
}

export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // comm may contain spaces and parentheses: split after the last ')'.
  const close = text.lastIndexOf(')');
  const comm = text.slice(text.indexOf('(') + 1, close);
  const rest = text.slice(close + 2).split(' '); // rest[0] is field 3 (state)
  const field = (n: number): string => rest[n - 3] ?? '';
  return {
    pid,
    comm,
    state: field(3),
    ppid: Number(field(4)),
    pgrp: Number(field(5)),
    session: Number(field(6)),
    startTime: field(22),
  };
}

export function identityOf(pid: number): ProcIdentity | null {
  const stat = readStat(pid);
  return stat ? { pid, startTime: stat.startTime } : null;
}

/** The same process, still running: not gone, not a zombie, not a recycled pid. */
export function isRunning(id: ProcIdentity): boolean {
  const stat = readStat(id.pid);
  return stat !== null && stat.startTime === id.startTime && stat.state !== 'Z' && stat.state !== 'X';
}

/** Signals only after re-checking the identity; returns whether a signal was sent. */
export function signalByIdentity(id: ProcIdentity, signal: NodeJS.Signals): boolean {
  if (!isRunning(id)) return false;
  try {
    process.kill(id.pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function readEnviron(pid: number): Record<string, string> | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return null;
  }
  const env: Record<string, string> = {};
  for (const entry of raw.split('\0')) {
    if (!entry) continue;
    const eq = entry.indexOf('=');
    env[eq < 0 ? entry : entry.slice(0, eq)] = eq < 0 ? '' : entry.slice(eq + 1);
  }
  return env;
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

export class WaitTimeoutError extends Error {
  readonly code = 'TEST_WAIT_TIMEOUT';
}

/** Polls a condition until it holds; throws after `timeoutMs` (generous bounds, not sleeps). */
export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new WaitTimeoutError(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Running processes whose environment carries CRASH_DRILL_RUN=runId: every descendant of a
 * subject inherits it unless it clears its environment, so this finds survivors without
 * knowing their pids.
 */
export function findByRunId(runId: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    if (readEnviron(pid)?.CRASH_DRILL_RUN !== runId) continue;
    const state = readStat(pid)?.state;
    if (state && state !== 'Z' && state !== 'X') found.push(pid);
  }
  return found;
}
