/**
 * The registry's files (harness/registry/own-files.ts) on real files: made exclusively, never
 * written through a symlink, read or appended to only when a regular file of the effective uid.
 * Files of another user are made by root (skipped otherwise).
 */
import { chownSync, lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendOwnFile, createOwnFile, isOwnFile, readOwnFile, replaceOwnFile } from '../../harness/registry/own-files.js';
import { tempDir } from '../support/temp-dir.js';

const uid = process.geteuid?.() ?? 0;
const isRoot = uid === 0;
if (!isRoot) console.log("[own-files] the case of another user's file skipped: only root can make a file of another user");
function folder(): string {
  return tempDir('own-files-'); // removed after the file (test/support/remove-temp-dirs.ts)
}
const modeOf = (file: string) => {
  const st = lstatSync(file);
  return [st.isFile(), st.uid, st.mode & 0o777];
};

describe('files of the run registry', () => {
  it('are made 0600 and only when the name is free: an existing file, or a symlink, is left as it was', () => {
    const dir = folder();
    const file = join(dir, 'a.json');
    expect(createOwnFile(file, 'one')).toBe(true);
    expect(modeOf(file)).toEqual([true, uid, 0o600]);
    expect(createOwnFile(file, 'two')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('one');
    const target = join(dir, 'target');
    writeFileSync(target, 'theirs');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect(createOwnFile(link, 'mine')).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
  });

  it('are replaced whole by a rename, which replaces a symlink itself and never writes through it', () => {
    const dir = folder();
    const target = join(dir, 'target');
    writeFileSync(target, 'theirs');
    const file = join(dir, 'run.json');
    symlinkSync(target, file);
    replaceOwnFile(file, '{"pid":1}');
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    expect(modeOf(file)).toEqual([true, uid, 0o600]);
    expect(readOwnFile(file)).toBe('{"pid":1}');
  });

  it('are read only when a regular file of ours: not through a symlink, not a FIFO (and without blocking on one)', () => {
    const dir = folder();
    const file = join(dir, 'w.jsonl');
    writeFileSync(file, 'line\n');
    expect(readOwnFile(file)).toBe('line\n');
    expect(isOwnFile(file)).toBe(true);
    const link = join(dir, 'link.jsonl');
    symlinkSync(file, link);
    expect(readOwnFile(link)).toBeNull();
    expect(isOwnFile(link)).toBe(false);
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(readOwnFile(fifo)).toBeNull();
    expect(isOwnFile(fifo)).toBe(false);
    expect(readOwnFile(join(dir, 'missing'))).toBeNull();
  });

  it('are appended to when ours (made 0600 when missing), and never through a symlink or into a FIFO', () => {
    const dir = folder();
    const file = join(dir, 'w.jsonl');
    expect(appendOwnFile(file, 'a\n')).toBe(true);
    expect(appendOwnFile(file, 'b\n')).toBe(true);
    expect([readFileSync(file, 'utf8'), ...modeOf(file)]).toEqual(['a\nb\n', true, uid, 0o600]);
    const target = join(dir, 'target');
    writeFileSync(target, 'theirs');
    const link = join(dir, 'link.jsonl');
    symlinkSync(target, link);
    expect(appendOwnFile(link, 'c\n')).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('theirs');
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(appendOwnFile(fifo, 'c\n')).toBe(false);
  });

  it.skipIf(!isRoot)("a regular file of another user is neither read nor appended to (root only: it makes the other user's file)", () => {
    const dir = folder();
    const file = join(dir, 'w.jsonl');
    writeFileSync(file, 'forged\n');
    expect(readOwnFile(file)).toBe('forged\n');
    chownSync(file, 65534, 65534);
    expect(readOwnFile(file)).toBeNull();
    expect(isOwnFile(file)).toBe(false);
    expect(appendOwnFile(file, 'mine\n')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('forged\n');
  });
});
