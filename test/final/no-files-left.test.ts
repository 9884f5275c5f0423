/**
 * The suite leaves no file behind, the way test/last/no-leftovers.test.ts shows it leaves no
 * process: every folder a test, a CLI run or a drill made under TMPDIR (the suite's own temp
 * folder, test/support/suite-tmp.ts) is gone once every other test has run (but the one copy of the
 * package for uid 65534 the group shares, which the teardown removes), and the suite added
 * nothing that looks like ours to /tmp itself (a private engine's folder, a JVM's performance data:
 * the keytool the harness runs for a run's truststore, a Java fake killed) but the run registries
 * of users that had none, which hold no run any more (the global teardown removes them); nor is a
 * run of the suite left in the user's own registry. Runs after test/last/, alone
 * (vitest.config.ts), and after the unit project in `npm run test:unit`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryPath } from '../../harness/registry/index.js';
import { addedFixedEntries, BEFORE_FILE, isRegistry, isVitestCache, SHARED_COPY, SUITE_TMP_ENV, suiteName } from '../support/suite-tmp.js';

/** The suite a registration names (harness/registry/runs.ts registerRun), or undefined; a file another user's may not be read. */
function registeredBy(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { suite?: string }).suite;
  } catch {
    return undefined;
  }
}

describe('the suite leaves no file behind', () => {
  const dir = process.env[SUITE_TMP_ENV];

  it.skipIf(!dir)('nothing is left in the temp folder the whole suite wrote into', () => {
    expect(readdirSync(dir!).filter((name) => name !== BEFORE_FILE && name !== SHARED_COPY && !isVitestCache(dir!, name))).toEqual([]);
  });

  it.skipIf(!dir)("nothing of ours was added to /tmp but run registries, and no run of the suite is left registered in those or in the user's own", () => {
    const added = addedFixedEntries(dir!);
    expect(added.filter((name) => !isRegistry(name))).toEqual([]);
    // A registry the suite made (the global teardown removes it) must hold no run of the suite's
    // (its registration names the suite, CRASH_DRILL_SUITE): every run ended and unregistered. A
    // run of someone drilling beside the suite may be registered there meanwhile: not the suite's.
    // The user's own registry too, wherever it is ($XDG_RUNTIME_DIR/crash-drill on a desktop):
    // one that was there before the suite outlives it, and a registration left there is a file
    // left behind (stale to the next harness's sweep, which is how test/last/ hides one).
    const registries = [...new Set([...added.filter(isRegistry).map((name) => join('/tmp', name)), registryPath()])];
    const registered = registries.flatMap((registry) => {
      const runs = join(registry, 'runs');
      return existsSync(runs)
        ? readdirSync(runs)
            .filter((file) => file.endsWith('.json') && registeredBy(join(runs, file)) === suiteName())
            .map((file) => join(runs, file))
        : [];
    });
    expect(registered).toEqual([]);
  });
});
