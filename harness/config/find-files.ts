import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ConfigError, type ConfigProblem } from './errors.js';

const SCENARIO_EXT = /\.ya?ml$/i;

/**
 * Expands files and folders into scenario files (`*.yaml`/`*.yml` below a folder, skipping
 * `node_modules` and dot-folders; a named file whatever its extension), absolute and sorted by
 * code unit, the same on every machine. Throws a ConfigError for a missing path or none found.
 */
export async function findScenarioFiles(paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) throw new ConfigError({ message: 'no scenario files or folders given' });
  const found = new Set<string>();
  const problems: ConfigProblem[] = [];
  const empty: string[] = [];
  for (const p of paths) {
    const abs = path.resolve(p);
    let stat;
    try {
      stat = await fs.stat(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push({
        file: abs,
        message: code === 'ENOENT' ? 'no such file or folder' : `cannot read: ${(e as Error).message}`,
      });
      continue;
    }
    if (stat.isDirectory()) {
      const before = found.size;
      await walk(abs, found, new Set());
      if (found.size === before) empty.push(abs);
    } else if (stat.isFile()) {
      found.add(abs);
    } else {
      problems.push({ file: abs, message: 'not a file or a folder' });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if (found.size === 0) {
    throw new ConfigError(empty.map((dir) => ({ file: dir, message: 'no scenario files (*.yaml, *.yml) found here' })));
  }
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function walk(dir: string, out: Set<string>, seen: Set<string>): Promise<void> {
  // A symlink back up the tree would loop forever; visit each real folder once.
  const real = await fs.realpath(dir);
  if (seen.has(real)) return;
  seen.add(real);
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    throw new ConfigError({ file: dir, message: `cannot read folder: ${(e as Error).message}` });
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      const target = await fs.stat(full).catch(() => undefined); // a dangling link is skipped
      isDir = target?.isDirectory() ?? false;
      isFile = target?.isFile() ?? false;
    }
    if (isDir) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      await walk(full, out, seen);
    } else if (isFile && SCENARIO_EXT.test(entry.name)) {
      out.add(full);
    }
  }
}
