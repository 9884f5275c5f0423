/**
 * The run registry's files (registry.ts), opened so nothing another user planted is written
 * through or believed: made with O_CREAT|O_EXCL|O_NOFOLLOW, 0600; read or appended only through
 * an O_NOFOLLOW|O_NONBLOCK descriptor whose fstat says a regular file of the effective uid.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { euid } from './registry.js';

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = constants;

/** Makes `file` with `text`; false when the name exists already. Other failures throw. */
export function createOwnFile(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Writes `file` whole via an exclusive temp name renamed over it (rename never follows a symlink). */
export function replaceOwnFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    unlinkSync(tmp); // our own leftover, from a process of ours killed mid-write with this pid
  } catch {
    // none
  }
  createOwnFile(tmp, text);
  renameSync(tmp, file);
}

/** As replaceOwnFile, keeping the new descriptor: `text` gets it before the rename (run-lock.ts). */
export function replaceOwnFileKeepOpen(file: string, text: (fd: number) => string): number {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    unlinkSync(tmp); // our own leftover, from a process of ours killed mid-write with this pid
  } catch {
    // none
  }
  const fd = openSync(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text(fd));
    renameSync(tmp, file);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // not made, or renamed
    }
    throw err;
  }
  return fd;
}

/** Appends `text` in one write, making `file` when missing; false when it is not a regular file of ours. */
export function appendOwnFile(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    try {
      fd = openSync(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
    } catch (again) {
      // ELOOP: a symlink; ENXIO: a FIFO nobody reads. Neither is written through.
      if (['ELOOP', 'ENXIO'].includes((again as NodeJS.ErrnoException).code ?? '')) return false;
      throw again;
    }
  }
  try {
    if (!ownRegular(fd)) return false;
    writeSync(fd, text);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The text of `file` when it is a regular file of ours; null when missing, a symlink, or anything else. */
export function readOwnFile(file: string): string | null {
  const opened = openOwnFile(file);
  if (opened === null) return null;
  closeSync(opened.fd);
  return opened.text;
}

/** `file` opened for reading when it is a regular file of ours, with its text (the caller closes it); else null. */
export function openOwnFile(file: string): { fd: number; text: string } | null {
  let fd: number;
  try {
    fd = openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (ownRegular(fd)) return { fd, text: readFileSync(fd, 'utf8') };
  } catch {
    // unreadable: not believed
  }
  closeSync(fd);
  return null;
}

/** Whether `file` is a regular file of ours (lstat: a symlink is not), for files known by name only. */
export function isOwnFile(file: string): boolean {
  try {
    const st = lstatSync(file);
    return st.isFile() && st.uid === euid();
  } catch {
    return false;
  }
}

/** Removes the entries of `dir` that `pick` chooses and lstat says are real folders of ours; returns how many. */
export function removeOwnFolders(dir: string, pick: (name: string) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!pick(name)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || st.uid !== euid()) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

function ownRegular(fd: number): boolean {
  const st = fstatSync(fd);
  return st.isFile() && st.uid === euid();
}
