/** The other per-process files of /proc the harness reads and a few machine-wide ones (proc(5)); each null when gone or unreadable. */
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

/** Whether this machine has a /proc to read (Linux); elsewhere (macOS) the ps + lsof tools stand in. */
export function procAvailable(): boolean {
  return existsSync('/proc/self/stat');
}

/** The uid owning /proc/PID (the process's real owner), or null when gone. */
export function readOwnerUid(pid: number): number | null {
  try {
    return statSync(`/proc/${pid}`).uid;
  } catch {
    return null;
  }
}

/** The program the kernel runs (/proc/PID/exe), or null when gone or another user's. */
export function readExe(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

export function readCwd(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/** A process's I/O counters (/proc/PID/io, proc(5)); null when gone or another user's (mode 0400). */
export interface IoCounters {
  rchar: number;
  wchar: number;
  syscr: number;
  syscw: number;
}

export function readIo(pid: number): IoCounters | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/io`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: keyof IoCounters) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  const io = { rchar: field('rchar'), wchar: field('wchar'), syscr: field('syscr'), syscw: field('syscw') };
  return Object.values(io).every(Number.isFinite) ? io : null;
}

export function readMaps(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/maps`, 'utf8');
  } catch {
    return null;
  }
}

export function listTasks(pid: number): number[] | null {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return null;
  }
}

/** One file of a thread: its stat line, the kernel function it waits in (wchan) or its name (comm). */
export function readTaskFile(pid: number, tid: number, name: 'stat' | 'wchan' | 'comm'): string | null {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/${name}`, 'utf8');
  } catch {
    return null;
  }
}

/** The mount table (/proc/mounts), or null when it cannot be read. */
export function readMounts(): string | null {
  try {
    return readFileSync('/proc/mounts', 'utf8');
  } catch {
    return null;
  }
}

/** One environment variable's value in each of `pids` that has it: a raw byte search, since this runs over every process. */
export function readEnvironValues(pids: Iterable<number>, name: string): Map<number, string> {
  const out = new Map<number, string>();
  const needle = Buffer.from(`\0${name}=`);
  for (const pid of pids) {
    let raw: Buffer;
    try {
      raw = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    const at = raw.subarray(0, name.length + 1).equals(needle.subarray(1)) ? 0 : raw.indexOf(needle);
    if (at < 0) continue;
    const start = at + needle.length - (at === 0 && raw[0] !== 0 ? 1 : 0);
    const end = raw.indexOf(0, start);
    out.set(pid, raw.toString('utf8', start, end < 0 ? raw.length : end));
  }
  return out;
}

/** A kernel setting under /proc/sys (`user/max_user_namespaces`), trimmed; null where this kernel has no such file. */
export function readSysctl(name: string): string | null {
  try {
    return readFileSync(`/proc/sys/${name}`, 'utf8').trim();
  } catch {
    return null;
  }
}
