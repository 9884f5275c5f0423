import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/temp-dir.js';

/** A temp folder per test (tempDir's), removed afterwards; `write` creates parent folders as needed. */
export interface TempDir {
  root: string;
  write(rel: string, text: string): Promise<string>;
  remove(): Promise<void>;
}

export async function makeTempDir(): Promise<TempDir> {
  const root = tempDir('crash-drill-config-');
  return {
    root,
    async write(rel, text) {
      const file = path.join(root, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, text);
      return file;
    },
    remove: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/** Runs `fn` and returns the error it throws; fails the test when it does not throw. */
export async function caught(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw, but nothing was thrown');
}

export const MINIMAL = `id: minimal
subject:
  command: node
target:
  call: slow
`;
