/**
 * "No I/O" between two looks at a server, from its I/O counters (/proc/PID/io, read through
 * harness/observe/proc/files.ts): rchar and wchar (bytes moved by read- and write-like calls,
 * pipes and sockets included), syscr and syscw (how many such calls), summed over its threads.
 *
 * An idle server's counters still move: its event loop is woken through an eventfd, whose every
 * read and write moves exactly 8 bytes (eventfd(2); a timerfd's read too, timerfd_create(2)).
 * Measured here on an idle well-behaved fake server (Node v20.20.2, read every 20 ms for 60 s):
 * 13, 1, 1, 28, 621 and 7 reads, and as many writes, between 8.0 s and 17.4 s after its start
 * (V8's memory reducer and its background threads posting back to the loop), each of exactly 8
 * bytes, then none in the next 42 s. So a change counts as no I/O when every call it adds moved 8 bytes: the bytes are 8 times
 * the calls, on both sides. An MCP message is a JSON-RPC object, never 8 bytes long: a request
 * read or a response written breaks the equality, and so does a read that found nothing (its
 * call adds no bytes), which errs on the side of I/O.
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
