/**
 * vitest setupFiles: after each test file, the temp folders tempDir() made for it are removed
 * (the suite leaves no file behind: test/final/no-files-left.test.ts). A file that needs a folder
 * past its own end has none: every drill and CLI run it starts has ended by then.
 */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { madeTempDirs } from './temp-dir.js';

afterAll(() => {
  for (const dir of madeTempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
