/**
 * Reading the Linux process table from /proc: the one module of harness/ that opens anything
 * there (test/layering.test.ts). Every reader returns null when the process is gone: in a crash
 * drill that is the normal case, not an error.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { monoNow } from '../util/clock.js';

export { fdIsFifo, fdLinkedTo, fdLinkMode, listFds, readFdinfo, readFdLink, readFdLinkOrThrow, readFdLinks, readFdLinksAsync } from './proc/fds.js';
export {
  listTasks,
  procAvailable,
  readCwd,
  readEnvironValues,
  readExe,
  readIo,
  readMaps,
  readMounts,
  readOwnerUid,
  readSysctl,
  readTaskFile,
  type IoCounters,
} from './proc/files.js';
export { readNetTable, scanNetTable, type NetTableName } from './proc/net-tables.js';

export type ProcStat = {
  pid: number;
  comm: string;
  /** One letter: R S D Z T t X I ... (proc(5)). */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** Field 9. Used to skip kernel threads (PF_KTHREAD). */
  flags: number;
  /** Field 22: clock ticks after boot. With pid, the identity of a process. */
  startTime: number;
  /** Fields 14 and 15, utime + stime: the CPU it has used, in clock ticks. */
  cpuTicks: number;
  /** Field 52: the wait(2) status; only meaningful while the process is a zombie. */
  exitCode: number;
};

const PF_KTHREAD = 0x00200000;

/** Parse /proc/PID/stat, split at the LAST ')': comm may hold spaces and parentheses (proc(5)). */
export function parseStat(text: string): ProcStat | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const pid = Number(text.slice(0, open).trim());
  const comm = text.slice(open + 1, close);
  // Walk the space-separated fields after comm, keeping only the ones we use: this runs for
  // every process on the machine at every sample, so no array of all 50 fields is built.
  const want = [3, 4, 5, 6, 9, 14, 15, 22, 52];
  const got: string[] = [];
  let field = 3;
  let start = close + 2;
  let w = 0;
  while (w < want.length && start <= text.length) {
    let end = text.indexOf(' ', start);
    if (end < 0) end = text.length;
    if (field === want[w]) {
      got.push(text.slice(start, end).trim());
      w++;
    }
    field++;
    start = end + 1;
  }
  // Field 22 is required; field 52 exists since Linux 3.5, older kernels leave it out.
  if (got.length < 8) return null;
  const num = (i: number): number => Number(got[i]);
  return {
    pid,
    comm,
    state: got[0] || '?',
    ppid: num(1),
    pgid: num(2),
    sid: num(3),
    flags: num(4),
    cpuTicks: num(5) + num(6),
    startTime: num(7),
    exitCode: got.length >= 9 ? num(8) : 0,
  };
}

/** One buffer for every stat read: a stat line is under 1 KiB even with a 64-byte comm. */
const statBuf = Buffer.alloc(4096);

/**
 * Open /proc/PID/stat descriptors, kept so a read is one pread: a descriptor stays bound to its
 * process, so once reaped a read fails (ESRCH) even if the pid is reused.
 */
const keptStatFds = new Map<number, number>();
/** At most this many kept descriptors; beyond it, reads open and close. */
export const MAX_KEPT_STAT_FDS = 1024;

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

function readStatFd(fd: number): ProcStat | null {
  try {
    const n = readSync(fd, statBuf, 0, statBuf.length, 0);
    return parseStat(statBuf.toString('utf8', 0, n));
  } catch {
    return null;
  }
}

/** The stat line of `pid`, or null when there is no such process (or it cannot be read). */
export function readStat(pid: number): ProcStat | null {
  const kept = keptStatFds.get(pid);
  if (kept !== undefined) {
    const stat = readStatFd(kept);
    if (stat !== null) return stat;
    // Reaped (or unreadable): forget it, and look at whatever holds the pid now.
    keptStatFds.delete(pid);
    closeQuietly(kept);
  }
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return null;
  }
  const stat = readStatFd(fd);
  if (stat !== null && keptStatFds.size < MAX_KEPT_STAT_FDS) keptStatFds.set(pid, fd);
  else closeQuietly(fd);
  return stat;
}

/** The stat line of `pid` read once, keeping no descriptor (a subject's start time right after its spawn). */
export function readStatOnce(pid: number): ProcStat | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Closes the kept descriptors of every pid not in `live` (a full listing of /proc). */
export function forgetStatFdsExcept(live: ReadonlySet<number> | ReadonlyMap<number, unknown>): void {
  for (const [pid, fd] of keptStatFds) {
    if (!live.has(pid)) {
      keptStatFds.delete(pid);
      closeQuietly(fd);
    }
  }
}

/** How many stat descriptors are kept open (tests). */
export function keptStatFdCount(): number {
  return keptStatFds.size;
}

export function isKernelThread(stat: ProcStat): boolean {
  return (stat.flags & PF_KTHREAD) !== 0 || stat.pid === 2 || stat.ppid === 2;
}

/** Thread-group ids only: /proc lists processes, their threads live under /proc/PID/task. */
export function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(name));
  }
  return pids;
}

/** The initial environment of the process (what execve got), null if gone or unreadable. */
export function readEnviron(pid: number): Map<string, string> | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return null;
  }
  const env = new Map<string, string>();
  for (const entry of raw.split('\0')) {
    if (entry === '') continue;
    const eq = entry.indexOf('=');
    if (eq <= 0) env.set(entry, '');
    else env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

/** argv, null if gone. Zombies and kernel threads have an empty cmdline. */
export function readCmdline(pid: number): string[] | null {
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
  const parts = raw.split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

let clkTck: number | undefined;

/** sysconf(_SC_CLK_TCK), read once; 100 on every mainstream Linux build (USER_HZ). */
export function clockTicksPerSecond(): number {
  if (clkTck === undefined) {
    try {
      const out = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      clkTck = Number.isFinite(out) && out > 0 ? out : 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

let bootOffsetMs: number | undefined;

/**
 * Start times count on the boot-time clock (task->start_boottime), which runs during suspend;
 * monoNow() does not, so /proc/uptime gives the difference (under 50 ms is noise).
 */
function bootToMonotonicOffsetMs(): number {
  if (bootOffsetMs === undefined) {
    bootOffsetMs = 0;
    try {
      const uptimeMs = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
      const diff = uptimeMs - monoNow();
      if (Number.isFinite(diff) && diff > 50) bootOffsetMs = diff;
    } catch {
      // keep 0
    }
  }
  return bootOffsetMs;
}

/** A start time in clock ticks as monoNow() milliseconds (resolution: one tick, 10 ms). */
export function startTimeToMono(startTime: number): number {
  return (startTime / clockTicksPerSecond()) * 1000 - bootToMonotonicOffsetMs();
}
