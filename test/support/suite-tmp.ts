/**
 * The suite's own temp folder. vitest.config.ts makes it before any worker starts and points
 * TMPDIR at it, so every folder a test, a CLI run or a drill makes with mkdtemp lands in it;
 * test/final/no-files-left.test.ts fails when anything is left in it after the whole suite (or
 * when the suite added a drill's folder to /tmp itself), and the global teardown removes it, so
 * a failing suite leaves nothing on the machine either.
 *
 * Sticky and open to every user, like /tmp: the unprivileged tests drop to other uids, which
 * must make their own folders in it. Its name is short (`cds-XXXXXX`): paths under it end up
 * in command lines that reports cut at 80 characters, and in socket paths (108 at most).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SUITE_TMP_ENV = 'CRASH_DRILL_SUITE_TMP';
/** The /tmp entries that look like ours, listed when the suite started. */
export const BEFORE_FILE = '.tmp-before.json';

/**
 * /tmp entries the suite's code makes there whatever TMPDIR says: a private engine's folder
 * (test/containers/support/private-engine.ts) and a user's run registry (/tmp/crash-drill-<uid>).
 */
const FIXED = [/^cdk-/, /^crash-drill-\d+$/];

export function fixedEntries(): string[] {
  return readdirSync('/tmp').filter((name) => FIXED.some((re) => re.test(name)));
}

/**
 * vitest's own module cache: a folder holding only `ssr/` or `web/` that vitest makes in TMPDIR
 * for each project and removes when it closes, after every test file.
 */
export function isVitestCache(dir: string, name: string): boolean {
  try {
    const inside = readdirSync(join(dir, name));
    return inside.length > 0 && inside.every((entry) => entry === 'ssr' || entry === 'web');
  } catch {
    return false;
  }
}

/** Makes the suite's temp folder once (the config may be loaded more than once) and returns it. */
export function suiteTmp(): string {
  const existing = process.env[SUITE_TMP_ENV];
  if (existing) return existing;
  const dir = mkdtempSync(join(tmpdir(), 'cds-'));
  chmodSync(dir, 0o1777);
  writeFileSync(join(dir, BEFORE_FILE), JSON.stringify(fixedEntries()));
  process.env[SUITE_TMP_ENV] = dir;
  process.env.TMPDIR = dir;
  return dir;
}

/** vitest globalSetup: the teardown removes the suite's temp folder, whatever the suite found. */
export default function setup(): () => void {
  const dir = suiteTmp();
  return () => rmSync(dir, { recursive: true, force: true });
}
