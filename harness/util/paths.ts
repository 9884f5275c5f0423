import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessBug } from './errors.js';

let root: string | undefined;

/** The package root: the nearest folder above this file with a package.json (works from src and dist). */
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

/**
 * A compiled file of the package. The drill client always runs from dist/, even when the
 * harness itself runs from TypeScript sources under vitest: a process that must start fast
 * should not pay for a transpiler.
 */
export function distFile(relative: string): string {
  return join(packageRoot(), 'dist', relative);
}

/**
 * The path to show a user: relative to the working folder when the file is inside it
 * (`scenarios/bad.yaml`), absolute otherwise (a temp folder), so it can be pasted either way.
 * Every message of the CLI and the config loader names files this way.
 */
export function displayPath(file: string): string {
  const abs = resolve(file);
  const rel = relative(process.cwd(), abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return abs;
  return rel;
}
