/**
 * The unprivileged group passes from a checkout in a private (0700) folder, the usual place for a
 * clone (a home folder), where uid 65534 cannot read the package and test/support/unprivileged.ts
 * runs the CLI from a readable copy of what the package ships. CI clones into a readable folder,
 * so without this test it never sees that path (a copy that left out the perl scripts failed 10
 * tests in 4 files there). The group is every test file that drops privileges through that helper,
 * run by a vitest of its own from a copy of this checkout (the working tree as git sees it, dist/,
 * and node_modules linked) inside a 0700 folder. The group's end-to-end files run there alone:
 * vitest.config.ts leaves them out of this suite (test/support/private-checkout.ts). Where this
 * checkout is private already, or the suite does not run as root, the group runs in the suite
 * itself and this test says why it does not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { collect } from '../support/cli.js';
import { PRIVATE_CHECKOUT_TEST, privateCheckoutUnavailable, readableByNobody, unprivilegedGroup } from '../support/private-checkout.js';
import { NESTED_SUITE_ENV, SUITE_TMP_ENV } from '../support/suite-tmp.js';
import { tempDir } from '../support/temp-dir.js';
import { unprivileged } from '../support/unprivileged.js';

const ROOT = packageRoot();

/** This checkout as git sees its working tree, with dist/ and node_modules, in `<0700 folder>/checkout`. */
function privateCheckout(): string | null {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) return null;
  const parent = tempDir('crash-drill-private-');
  chmodSync(parent, 0o700);
  const checkout = join(parent, 'checkout');
  for (const file of listed.stdout.split('\0')) {
    // A file deleted from the working tree but still in the index is listed too.
    if (file === '' || !existsSync(join(ROOT, file))) continue;
    mkdirSync(join(checkout, dirname(file)), { recursive: true });
    cpSync(join(ROOT, file), join(checkout, file));
  }
  cpSync(join(ROOT, 'dist'), join(checkout, 'dist'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
  return checkout;
}

const nobody = unprivileged();
const why = !nobody.available ? nobody.reason : privateCheckoutUnavailable();
if (nobody.available) nobody.cleanup();
if (why) console.log(`[skip] ${PRIVATE_CHECKOUT_TEST}: ${why}`);

describe.skipIf(why !== null)('from a checkout in a 0700 folder', () => {
  it('the unprivileged group passes, every test of it run', async () => {
    const group = unprivilegedGroup();
    expect(group.length).toBeGreaterThanOrEqual(5);
    const checkout = privateCheckout();
    expect(checkout, 'this checkout is no git working tree').not.toBeNull();
    expect(readableByNobody(join(checkout!, 'dist/bin/crash-drill.js'))).toBe(false);
    const report = join(dirname(checkout!), 'vitest.json');
    const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmpdir(), [NESTED_SUITE_ENV]: '1' };
    // A vitest of its own: not a worker of this one, and its temp folder its own (inside ours).
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === SUITE_TMP_ENV) delete env[key];
    const vitest = join(checkout!, 'node_modules/vitest/vitest.mjs');
    // One file at a time: this suite's own workers are running beside it. In a process group of
    // its own, which is ended if this test ends first (its timeout): the nested suite must not go
    // on drilling into test/last/, whose checks count every drill process left (its holders'
    // watchdogs then end its drills). If this worker dies instead (the outer suite interrupted),
    // the kernel sends the nested vitest SIGTERM (setpriv's parent-death signal), on which it
    // ends its own workers.
    const argv = [process.execPath, vitest, 'run', ...group, '--maxWorkers=1', '--reporter=json', `--outputFile=${report}`];
    const nested = spawn('setpriv', ['--pdeathsig', 'SIGTERM', '--', ...argv], {
      cwd: checkout!,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    onTestFinished(() => {
      // Still our unreaped child, so its pid and group are still its own.
      if (nested.exitCode === null && nested.signalCode === null && nested.pid !== undefined) process.kill(-nested.pid, 'SIGKILL');
    });
    const run = await collect(nested);
    const results = JSON.parse(readFileSync(report, 'utf8')) as {
      numTotalTests: number;
      numPassedTests: number;
      testResults: Array<{ name: string; assertionResults: Array<{ fullName: string; status: string; failureMessages?: string[] }> }>;
    };
    const notPassed = results.testResults.flatMap((file) =>
      file.assertionResults
        .filter((t) => t.status !== 'passed')
        .map(
          (t) =>
            `${relative(checkout!, file.name)}: ${t.fullName} (${t.status})${(t.failureMessages ?? []).map((m) => `\n  ${m.split('\n').slice(0, 12).join('\n  ')}`).join('')}`,
        ),
    );
    expect(notPassed, run.stderr.slice(-4000)).toEqual([]);
    expect(results.testResults.map((file) => relative(checkout!, file.name)).sort()).toEqual([...group].sort());
    expect(results.numPassedTests).toBe(results.numTotalTests);
    expect(run.code).toBe(0);
  }, 600_000);
});
