/**
 * Writes a set of files all or nothing as far as a file system allows: all checked, all written to
 * temp names, then all renamed into place (rename(2) is atomic on one file system).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../util/paths.js';
import { UsageError } from '../util/errors.js';

export interface PlannedFile {
  /** absolute path */
  file: string;
  text: string;
}

/** Files init would write exist already and `force` is off: nothing was written (exit 3). */
export class InitFilesError extends UsageError {
  override readonly code = 'CRASH_DRILL_INIT_FILES';
  constructor(readonly files: string[]) {
    super(
      `${files.map(displayPath).join(', ')} ${files.length === 1 ? 'exists' : 'exist'} already; refusing to overwrite (use --force to overwrite); nothing was written`,
    );
  }
}

/** The files among `files` that exist already. */
export function existingFiles(files: readonly string[]): string[] {
  return files.filter((f) => existsSync(f));
}

export async function writeAll(planned: readonly PlannedFile[], force: boolean): Promise<void> {
  const existing = existingFiles(planned.map((p) => p.file));
  if (existing.length > 0 && !force) {
    throw new InitFilesError(existing);
  }
  const temps: Array<{ temp: string; file: string }> = [];
  try {
    for (const { file, text } of planned) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.crash-drill-init-${process.pid}.tmp`;
      temps.push({ temp, file });
      await fs.writeFile(temp, text);
    }
  } catch (error) {
    await Promise.all(temps.map(({ temp }) => fs.rm(temp, { force: true })));
    throw error;
  }
  for (const { temp, file } of temps) await fs.rename(temp, file);
}
