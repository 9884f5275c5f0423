/**
 * `crash-drill init <cmd>` then `crash-drill run` in an empty folder where mcp-crash-drill is not
 * installed (as `npx crash-drill` runs it from npx's cache): the config init writes must load
 * there. A config that imports the package is the control: in the same folder
 * it fails to load, so the folder really is one where the package cannot be resolved.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signalIdentity } from '../../harness/containment/signal.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli } from '../support/cli.js';
import { initLeftovers as leftovers, initMarker } from '../support/init-leftovers.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';

const SERVER = join(packageRoot(), 'dist/fake-servers/well-behaved.js');
const { marker, env: INIT_ENV } = initMarker();

afterEach(() => {
  // A safety net only: the test requires that none is left. By identity.
  for (const id of leftovers(marker)) signalIdentity(id, 'SIGKILL');
});

describe('init then run where mcp-crash-drill is not installed', () => {
  it('the config init writes loads, and the run drills the server: exit 0', async () => {
    const dir = tempDir('cd-not-installed-');
    expect(() => createRequire(join(dir, 'x.mjs')).resolve('mcp-crash-drill')).toThrow(/Cannot find module/);

    const init = await runCli(['init', 'node', SERVER], { cwd: dir, env: INIT_ENV });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(leftovers(marker)).toEqual([]);
    const config = readFileSync(join(dir, 'crash-drill.config.mjs'), 'utf8');
    expect(config).not.toMatch(/^import /m);
    expect(config).toContain("/** @type {import('mcp-crash-drill').DrillConfig} */\nexport default {\n");

    const run = await runCli(['run', '--only', 'lifecycle', '--mode', 'crash'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/\n2 passed, 0 failed, 0 unknown\n/);
    expect(run.code).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'crash-drill-report/results.json'), 'utf8'));
    expect(results.drills.map((d: { key: string; verdict: string }) => `${d.key} ${d.verdict}`)).toEqual([
      'lifecycle/idle/crash pass',
      'lifecycle/pre-dispatch/crash pass',
    ]);
    expect(markedProcesses(results.runId)).toEqual([]);

    // The control: what init wrote before, an import of the package, cannot load here.
    writeFileSync(
      join(dir, 'crash-drill.config.mjs'),
      "import { defineConfig } from 'mcp-crash-drill';\nexport default defineConfig({ scenarios: ['scenarios'], out: 'crash-drill-report' });\n",
    );
    const old = await runCli(['run', '--only', 'lifecycle', '--mode', 'crash'], { cwd: dir });
    expect(old.code).toBe(3);
    expect(old.stderr).toContain("crash-drill.config.mjs: cannot load the config: Cannot find package 'mcp-crash-drill' imported from");
  });
});
