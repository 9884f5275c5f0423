/**
 * The suite leaves no file behind, the way test/last/no-leftovers.test.ts shows it leaves no
 * process: every folder a test, a CLI run or a drill made under TMPDIR (the suite's own temp
 * folder, test/support/suite-tmp.ts) is gone once every other test has run, and the suite added
 * nothing that looks like ours to /tmp itself (a private engine's folder, a JVM's performance data:
 * the keytool the harness runs for a run's truststore, a Java fake killed) but the run registries
 * of users that had none, which hold no run any more (the global teardown removes them). Runs
 * after test/last/, alone (vitest.config.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addedFixedEntries, BEFORE_FILE, isRegistry, isVitestCache, SUITE_TMP_ENV } from '../support/suite-tmp.js';

describe('the suite leaves no file behind', () => {
  const dir = process.env[SUITE_TMP_ENV];

  it.skipIf(!dir)('nothing is left in the temp folder the whole suite wrote into', () => {
    expect(readdirSync(dir!).filter((name) => name !== BEFORE_FILE && !isVitestCache(dir!, name))).toEqual([]);
  });

  it.skipIf(!dir)('nothing of ours was added to /tmp but run registries, and no run is left registered in those', () => {
    const added = addedFixedEntries(dir!);
    expect(added.filter((name) => !isRegistry(name))).toEqual([]);
    // A registry the suite made (the global teardown removes it) must hold no run: every run ended and unregistered.
    const registered = added.filter(isRegistry).flatMap((name) => {
      const runs = join('/tmp', name, 'runs');
      return existsSync(runs)
        ? readdirSync(runs)
            .filter((file) => file.endsWith('.json'))
            .map((file) => `${name}/runs/${file}`)
        : [];
    });
    expect(registered).toEqual([]);
  });
});
