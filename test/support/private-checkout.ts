/**
 * The unprivileged group (every test file that drops privileges through test/support/unprivileged.ts)
 * and where it runs. As root in a checkout uid 65534 can read (CI's), the group's end-to-end files
 * run once, from a private copy of the checkout, inside test/unprivileged/private-checkout.e2e.test.ts:
 * that is the harder path (the package copied for 65534), and running them in this suite as well
 * drilled the same thing twice. Anywhere else (an ordinary user, a private checkout) the group runs
 * in the suite itself and private-checkout says why it does not run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../harness/util/paths.js';
import { NOBODY, readableBy } from './unprivileged.js';

export const PRIVATE_CHECKOUT_TEST = 'test/unprivileged/private-checkout.e2e.test.ts';
const ROOT = packageRoot();

/** The test files that drop privileges through test/support/unprivileged.ts, private-checkout aside. */
export function unprivilegedGroup(dir = 'test'): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return unprivilegedGroup(path);
    if (!name.endsWith('.test.ts') || path === PRIVATE_CHECKOUT_TEST) return [];
    return /from '(\.\.\/)+support\/unprivileged\.js'/.test(readFileSync(join(ROOT, path), 'utf8')) ? [path] : [];
  });
}

/** Whether uid 65534 can read a file (as test/support/unprivileged.ts decides whether to copy). */
export const readableByNobody = (file: string): boolean => readableBy(NOBODY, file);

/** Why the group cannot run from a private copy of this checkout here, or null where it can. */
export function privateCheckoutUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'an ordinary user cannot make a folder that uid 65534 may not read and still run as 65534';
  if (!readableByNobody(join(ROOT, 'dist/bin/crash-drill.js'))) return `this checkout (${ROOT}) is private already: the unprivileged group runs from it`;
  return null;
}

/**
 * The group's end-to-end files that this suite leaves to private-checkout: all of them where that
 * test runs the group, none elsewhere, and none when vitest was given files or filters (a developer
 * running one of them gets that file itself).
 */
export function leftToPrivateCheckout(argv: readonly string[], e2e: (file: string) => boolean): string[] {
  const run = argv.indexOf('run');
  const args = run === -1 ? [] : argv.slice(run + 1);
  // A filter is an argument that is neither a flag nor the value of the flag before it (`--project unit`).
  const filters = args.filter((arg, i) => !arg.startsWith('-') && !(i > 0 && args[i - 1]!.startsWith('-') && !args[i - 1]!.includes('=')));
  if (filters.length > 0 || privateCheckoutUnavailable() !== null) return [];
  return unprivilegedGroup().filter(e2e);
}
