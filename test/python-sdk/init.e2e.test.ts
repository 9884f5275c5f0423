/**
 * End to end: `crash-drill init` against a server on the Python SDK (MCPServer) and one on
 * FastMCP, in a temp project folder each; the real `crash-drill run` then runs what init wrote,
 * and no drill may end in ERROR (nor unknown at these points). No process of init may remain.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { signalIdentity } from '../../harness/containment/signal.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { initLeftovers as leftovers, initMarker } from '../support/init-leftovers.js';
import { tempDir } from '../support/temp-dir.js';
import { pythonSdkSuite } from './support/python-sdk.js';

const python = pythonSdkSuite('test/python-sdk/init.e2e.test.ts');
const ROOT = packageRoot();

const dirs: string[] = [];
const { marker, env: INIT_ENV } = initMarker();
const initLeftovers = () => leftovers(marker);

afterEach(() => {
  // A safety net only: the assertions below require that none is left. By identity.
  for (const id of initLeftovers()) signalIdentity(id, 'SIGKILL');
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!python)('crash-drill init on Python SDK servers', () => {
  for (const fw of ['mcpserver', 'fastmcp']) {
    it(`${fw}: writes a scenario per tool, and what it wrote runs with no ERROR`, async () => {
      const dir = tempDir('crash-drill-pysdk-init-');
      dirs.push(dir);
      const script = join(ROOT, `fake-servers/python-sdk/${fw}/well-behaved.py`);
      const init = await runCli(['init', '--command', python!, '--arg', script], { cwd: dir, env: INIT_ENV });
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      expect(init.stdout).toContain('wrote crash-drill.config.mjs and 3 scenarios (18 drills: each point in crash, close and hang):\n');
      expect(initLeftovers()).toEqual([]);
      expect(readdirSync(join(dir, 'scenarios'), { recursive: true, encoding: 'utf8' }).sort()).toEqual([
        'lifecycle.yaml',
        'may-write',
        'may-write/echo.yaml',
        'may-write/run-helper.yaml',
      ]);
      expect(readFileSync(join(dir, 'scenarios/may-write/echo.yaml'), 'utf8')).toContain(`command: ${python}`);

      // init's config and defaults as written (deadlines included), with the package installed as
      // a user's project would have it; the points that need no remote.
      mkdirSync(join(dir, 'node_modules'));
      symlinkSync(ROOT, join(dir, 'node_modules/mcp-crash-drill'), 'dir');
      const out = join(dir, 'out');
      const run = await runCli(['run', '--point', 'idle,after-response', '--mode', 'crash', '--out', out], { cwd: dir });
      expect(existsSync(join(out, 'results.json')), `exit ${run.code}, no results.json; stderr:\n${run.stderr}`).toBe(true);
      const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
      const notJudged = results.drills
        .filter((d: { verdict: string }) => d.verdict === 'error' || d.verdict === 'unknown')
        .map((d: { key: string; reason: string }) => `${d.key}: ${d.reason}`);
      expect(notJudged).toEqual([]);
      expect([0, 1]).toContain(run.code);
      // --point chooses every scenario's points: a tool's idle drill is the lifecycle's (not repeated).
      expect(results.drills.map((d: { scenario: string; point: string }) => `${d.scenario}/${d.point}`)).toEqual([
        'lifecycle/idle',
        'lifecycle/after-response',
        'echo/after-response',
        'run-helper/after-response',
      ]);
      for (const d of results.drills) expect(d.era, d.key).toMatchObject({ era: '2026-07-28' });
      expect(markedProcesses(results.runId)).toEqual([]);
    }, 180_000);
  }
});
