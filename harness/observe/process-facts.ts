/** What holds a live process up, read from /proc for the diagnosis (harness/results/diagnosis.ts): names and counts only, redacted. */
import { redact as redactText, type Secret } from '../util/secrets.js';
import type { ProcIdentity } from './identity.js';
import { classifyFd } from './inventory.js';
import { fdIsFifo, listFds, listTasks, readExe, readFdinfo, readFdLink, readStat, readTaskFile } from './proc.js';

/** One thread: its name (comm), state and the kernel function it waits in. */
export interface ThreadFacts {
  tid: number;
  comm: string;
  state: string;
  wchan: string;
}

export interface ProcessFacts {
  pid: number;
  startTime: number;
  ppid: number;
  role: 'server' | 'other';
  state: string;
  exe: string | null;
  threadCount: number;
  threads: ThreadFacts[];
  stdin: {
    /** fd 0: 'pipe', 'socket', 'tty', 'file', '/dev/null', ... or null when closed. */
    kind: string | null;
    /** fd 0 is in the interest list of one of its epoll instances: an event loop still reads it. */
    polled: boolean;
    /** Threads blocked in a read of a pipe (a thread reading stdin, as Python's stdio transport does). */
    readingThreads: number;
  };
  /** It holds an epoll instance: an event loop that can keep it alive. */
  eventLoop: boolean;
  /** fds its epoll instances watch other than stdin (sockets, pipes to children, signal and timer fds). */
  polledOther: number;
  /** timerfd instances: armed timers the kernel shows (Node's and asyncio's timers are not among them). */
  timerfds: number;
  fdKinds: Record<string, number>;
  children: number[];
}

const MAX_THREADS = 16;

function threadsOf(pid: number, redact: (s: string) => string): { count: number; threads: ThreadFacts[] } {
  const tids = listTasks(pid)?.sort((a, b) => a - b);
  if (tids === undefined) return { count: 0, threads: [] };
  const threads = tids.slice(0, MAX_THREADS).map((tid) => {
    const stat = readTaskFile(pid, tid, 'stat') ?? '';
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    const wchan = readTaskFile(pid, tid, 'wchan') ?? '';
    return { tid, comm: redact((readTaskFile(pid, tid, 'comm') ?? '').trim()), state, wchan: wchan === '0' ? '' : wchan };
  });
  return { count: tids.length, threads };
}

/** The fds an epoll instance watches (fdinfo's `tfd:` lines). */
export function epollTargets(fdinfo: string): number[] {
  return [...fdinfo.matchAll(/^tfd:\s+(\d+)/gm)].map((m) => Number(m[1]));
}

function stdinKind(target: string): string {
  if (target === '/dev/null') return '/dev/null';
  const kind = classifyFd(target);
  return kind;
}

/** Whether a thread waits where a blocking stdin read waits: `pipe_read`, or the unix stream read for a socketpair. */
function readsLike(stdin: string | null, wchan: string): boolean {
  if (/pipe_read/.test(wchan)) return true;
  return stdin === 'socket' && /unix_stream_(read_generic|data_wait)/.test(wchan);
}

export function processFacts(id: ProcIdentity, opts: { role: 'server' | 'other'; secrets: readonly Secret[]; children: number[] }): ProcessFacts | null {
  const stat = readStat(id.pid);
  if (stat === null || stat.startTime !== id.startTime) return null;
  const redact = (s: string): string => redactText(s, opts.secrets);
  const fdKinds: Record<string, number> = {};
  let stdin: string | null = null;
  let timerfds = 0;
  const polled = new Set<number>();
  let eventLoop = false;
  for (const fd of listFds(id.pid) ?? []) {
    const target = readFdLink(id.pid, fd);
    if (target === null) continue;
    // A FIFO (a client's real pipe, as the harness makes one) links to a path: its type says pipe.
    const kind = classifyFd(target) === 'file' && fdIsFifo(id.pid, fd) ? 'pipe' : classifyFd(target);
    fdKinds[kind] = (fdKinds[kind] ?? 0) + 1;
    if (fd === '0') stdin = kind === 'pipe' ? 'pipe' : stdinKind(target);
    if (target === 'anon_inode:[timerfd]') timerfds++;
    if (target === 'anon_inode:[eventpoll]') {
      eventLoop = true;
      for (const t of epollTargets(readFdinfo(id.pid, fd) ?? '')) polled.add(t);
    }
  }
  const { count, threads } = threadsOf(id.pid, redact);
  const exePath = readExe(id.pid);
  const exe = exePath === null ? null : redact(exePath);
  return {
    pid: id.pid,
    startTime: id.startTime,
    ppid: stat.ppid,
    role: opts.role,
    state: stat.state,
    exe,
    threadCount: count,
    threads,
    stdin: { kind: stdin, polled: stdin !== null && polled.has(0), readingThreads: threads.filter((t) => readsLike(stdin, t.wchan)).length },
    eventLoop,
    polledOther: [...polled].filter((fd) => fd !== 0).length,
    timerfds,
    fdKinds,
    children: [...opts.children],
  };
}
