/**
 * Writes a set of files all or nothing, as far as a file system allows: every target is
 * checked first (an existing file is refused unless `force`), then every file is written to
 * a temp name beside its target, and only when all of them are written are they renamed into
 * place (rename(2) replaces a file atomically on the same file system).
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../util/paths.js';
import { UserError } from '../util/errors.js';

export interface PlannedFile {
  /** absolute path */
  file: string;
  text: string;
}

export class InitFilesError extends UserError {
  readonly code = 'CRASH_DRILL_INIT_FILES' as const;
  constructor(
    message: string,
    readonly files: string[],
  ) {
    super(message);
  }
}

/** The files among `files` that exist already. */
export function existingFiles(files: readonly string[]): string[] {
  return files.filter((f) => existsSync(f));
}

/**
 * writeAll for a command: true when written; false when a file exists and `force` is off, after
 * saying which and that nothing was written (the command then exits with a usage error).
 */
export async function writeAllOrSay(planned: readonly PlannedFile[], force: boolean, say: (line: string) => void): Promise<boolean> {
  try {
    await writeAll(planned, force);
    return true;
  } catch (error) {
    if (!(error instanceof InitFilesError)) throw error;
    say(
      `${error.files.map(displayPath).join(', ')} ${error.files.length === 1 ? 'exists' : 'exist'} already; refusing to overwrite (use --force to overwrite); nothing was written`,
    );
    return false;
  }
}

export async function writeAll(planned: readonly PlannedFile[], force: boolean): Promise<void> {
  const existing = existingFiles(planned.map((p) => p.file));
  if (existing.length > 0 && !force) {
    throw new InitFilesError(`refusing to overwrite ${existing.join(', ')} (use --force to overwrite)`, existing);
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
