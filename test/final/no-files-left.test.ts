/**
 * The suite leaves no file behind, the way test/last/no-leftovers.test.ts shows it leaves no
 * process: every folder a test, a CLI run or a drill made under TMPDIR (the suite's own temp
 * folder, test/support/suite-tmp.ts) is gone once every other test has run, and the suite added
 * nothing that looks like ours to /tmp itself (a private engine's folder, a registry of a user
 * that did not exist before). Runs after test/last/, alone (vitest.config.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BEFORE_FILE, fixedEntries, isVitestCache, SUITE_TMP_ENV } from '../support/suite-tmp.js';

describe('the suite leaves no file behind', () => {
  const dir = process.env[SUITE_TMP_ENV];

  it.skipIf(!dir)('nothing is left in the temp folder the whole suite wrote into', () => {
    expect(readdirSync(dir!).filter((name) => name !== BEFORE_FILE && !isVitestCache(dir!, name))).toEqual([]);
  });

  it.skipIf(!dir)('nothing of ours was added to /tmp', () => {
    const before = new Set(JSON.parse(readFileSync(join(dir!, BEFORE_FILE), 'utf8')) as string[]);
    const added = fixedEntries().filter((name) => !before.has(name) && join('/tmp', name) !== dir);
    expect(added).toEqual([]);
  });
});
