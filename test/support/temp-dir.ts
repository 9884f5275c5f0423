/**
 * The suite's one temp-folder helper. Every folder lands in the suite's own temp folder (TMPDIR,
 * test/support/suite-tmp.ts) and is removed after the test file that made it
 * (test/support/remove-temp-dirs.ts), so the suite leaves no file behind
 * (test/final/no-files-left.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders tempDir() made for the current test file; test/support/remove-temp-dirs.ts removes them after it. */
export const madeTempDirs: string[] = [];

export function tempDir(prefix = 'crash-drill-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeTempDirs.push(dir);
  return dir;
}
