/**
 * The files of the run registry (registry.ts), opened so that nothing another user planted is
 * written through or believed: made with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600 (a name that
 * already exists, a symlink included, is never opened by a create), and read or appended to only
 * through a descriptor opened with O_NOFOLLOW whose fstat says a regular file of the effective
 * uid. O_NONBLOCK keeps a FIFO in a file's place from blocking the open; fstat then refuses it.
 * Folders are removed only when lstat says a real folder of the effective uid (removeOwnFolders).
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

/**
 * Writes `file` whole, as one step a reader never sees half of: a temp name beside it, made
 * exclusively, then renamed over it (rename replaces the name itself, never what a symlink
 * there points at).
 */
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

/**
 * As replaceOwnFile, but the new file's descriptor is kept and returned (the caller closes it), and
 * `text` is asked for with that descriptor before anything is written or renamed: the name never
 * shows a file without what `text` did to it (a registration's lock, run-lock.ts).
 */
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

/**
 * `file` opened for reading when it is a regular file of ours, with its text; the caller closes
 * the descriptor (a registration's lock is probed through it, run-lock.ts). Null otherwise.
 */
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

/**
 * Removes the entries of `dir` that `pick` chooses and that are real folders of ours (lstat: a
 * symlink, a file or another user's folder in a shared folder is left alone); returns how many.
 * An unreadable `dir` removes nothing. The drills' temp folders (harness/drill/executor/
 * temp-folder.ts) and the runs' TLS folders (harness/run/run-tls.ts) go this way.
 */
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
