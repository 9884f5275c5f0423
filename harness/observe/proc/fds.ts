/** A process's file descriptors as /proc/PID/fd shows them (proc(5)): link target and access mode; null when gone. */
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';

/** The descriptor numbers of `pid` as /proc names them, or null when gone, a kernel thread or another user's. */
export function listFds(pid: number): string[] | null {
  try {
    return readdirSync(`/proc/${pid}/fd`);
  } catch {
    return null;
  }
}

/** Whether the descriptor is a pipe by its file type (S_ISFIFO), FIFOs included (harness/shared/fifo-stdio.ts). */
export function fdIsFifo(pid: number, fd: number | string): boolean {
  try {
    return statSync(`/proc/${pid}/fd/${fd}`).isFIFO();
  } catch {
    return false;
  }
}

export function readFdLink(pid: number, fd: number | string): string | null {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return null;
  }
}

/** readlink of /proc/PID/fd/N that throws the fs error, so a caller can tell EACCES from "closed meanwhile". */
export function readFdLinkOrThrow(pid: number, fd: number | string): string {
  return readlinkSync(`/proc/${pid}/fd/${fd}`);
}

/** The mode bits of the fd's link (0o400: open for reading, 0o200: for writing), or null when gone. */
export function fdLinkMode(pid: number, fd: number | string): number | null {
  try {
    return lstatSync(`/proc/${pid}/fd/${fd}`).mode;
  } catch {
    return null;
  }
}

/** /proc/PID/fdinfo/N (position, flags, and an epoll instance's `tfd:` lines), or null when gone. */
export function readFdinfo(pid: number, fd: number | string): string | null {
  try {
    return readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
  } catch {
    return null;
  }
}

/** The first fd of `pid` whose link is `link`, read synchronously; undefined when none is (or the process is gone). */
export function fdLinkedTo(pid: number, link: string): string | undefined {
  const dir = `/proc/${pid}/fd`;
  let fds: string[];
  try {
    fds = readdirSync(dir);
  } catch {
    return undefined; // gone, or a kernel thread
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`${dir}/${fd}`) === link) return fd;
    } catch {
      // the fd closed between readdir and readlink
    }
  }
  return undefined;
}

/** Every fd link of `pid`, read asynchronously ('' for an fd that closed meanwhile; none when gone). */
export async function readFdLinksAsync(pid: number): Promise<string[]> {
  const dir = `/proc/${pid}/fd`;
  const fds = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(fds.map((fd) => readlink(`${dir}/${fd}`).catch(() => '')));
}

/** Every fd link of `pid`, read synchronously ('' for an fd that closed meanwhile), or null when gone or not readable. */
export function readFdLinks(pid: number): string[] | null {
  const dir = `/proc/${pid}/fd`;
  let fds: string[];
  try {
    fds = readdirSync(dir);
  } catch {
    return null;
  }
  return fds.map((fd) => {
    try {
      return readlinkSync(`${dir}/${fd}`);
    } catch {
      return '';
    }
  });
}
