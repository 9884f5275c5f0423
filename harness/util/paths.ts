import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessBug } from './errors.js';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new HarnessBug('crash-drill: cannot find its own package.json');
    dir = parent;
  }
  return (root = dir);
}

/** A compiled file of the package: the drill client runs from dist/ even under vitest, so it pays for no transpiler. */
export function distFile(relative: string): string {
  return join(packageRoot(), 'dist', relative);
}

/** The path to show a user: relative to the working folder when inside it, else absolute. */
export function displayPath(file: string): string {
  const abs = resolve(file);
  const rel = relative(process.cwd(), abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return abs;
  return rel;
}
