/**
 * "No I/O" between two looks, from /proc/PID/io: an idle event loop still moves the counters
 * through an eventfd, 8 bytes a call (eventfd(2)), and an MCP message is never 8 bytes.
 */
import type { Backend } from './types.js';

/** The counters of every process of a session, one string: `pid:start:rchar:wchar:syscr:syscw` each, space-separated. */
export function sessionCounters(
  members: readonly { pid: number; startTime: number }[],
  backend: Backend,
): { counters: string | null; unreadable: string | null } {
  if (!backend.ioCounters) return { counters: null, unreadable: `the ${backend.name} backend shows no I/O counters` };
  const parts: string[] = [];
  for (const m of members) {
    const io = backend.ioCounters(m.pid);
    if (io === null) return { counters: null, unreadable: `the I/O counters of ${m.pid} cannot be read by this user` };
    parts.push(`${m.pid}:${m.startTime}:${io.rchar}:${io.wchar}:${io.syscr}:${io.syscw}`);
  }
  return { counters: parts.join(' '), unreadable: null };
}

/** Whether the counters went from `before` to `now` with no call but 8-byte ones, the same processes in both. */
export function quietBetween(before: string, now: string): boolean {
  const a = before.split(' ').map((p) => p.split(':'));
  const b = now.split(' ').map((p) => p.split(':'));
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    if (x.length !== 6 || y.length !== 6 || x[0] !== y[0] || x[1] !== y[1]) return false;
    const [rchar, wchar, syscr, syscw] = [2, 3, 4, 5].map((j) => Number(y[j]) - Number(x[j])) as [number, number, number, number];
    if (![rchar, wchar, syscr, syscw].every((d) => Number.isInteger(d) && d >= 0)) return false;
    return rchar === 8 * syscr && wchar === 8 * syscw;
  });
}
