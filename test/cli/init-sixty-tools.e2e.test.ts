/**
 * A first run on a large server: `crash-drill init` on a real SDK server with 60 tools
 * (40 may write, 20 annotated read-only: test/cli/fixtures/sixty-tools-server.mjs) writes the
 * points where the tool does not matter once, and the first run's plan repeats no drill: 366
 * drills, the tools that may write first. The other way: what init wrote before (every tool at
 * idle and pre-dispatch, 660 drills) plans to the same 366 drills, the 294 others listed as not
 * repeated. Both plans are read from the real CLI's results.json, on one shard of each run.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarios } from '../../harness/config/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli } from '../support/cli.js';
import { initLeftovers, initMarker } from '../support/init-leftovers.js';
import { markedProcesses } from '../support/markers.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const ROOT = packageRoot();
const SERVER = 'test/cli/fixtures/sixty-tools-server.mjs';
const TOOLS = Array.from({ length: 60 }, (_, i) => ({ name: `tool-${String(i + 1).padStart(2, '0')}`, readOnly: (i + 1) % 3 === 0 }));
const WRITERS = TOOLS.filter((t) => !t.readOnly).map((t) => t.name);
const READERS = TOOLS.filter((t) => t.readOnly).map((t) => t.name);
const MODES = ['crash', 'close', 'hang'];
/** The tool-independent drills: the lifecycle's, once. */
const LIFECYCLE = ['idle', 'pre-dispatch'].flatMap((p) => MODES.map((m) => `lifecycle/${p}/${m}`));
/** The first run's plan: the lifecycle, then each tool where its call is written, may-write tools first. */
const PLAN = [...LIFECYCLE, ...[...WRITERS, ...READERS].flatMap((t) => ['in-flight', 'after-response'].flatMap((p) => MODES.map((m) => `${t}/${p}/${m}`)))];

const dirs: string[] = [];
const { marker, env: INIT_ENV } = initMarker();
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = tempDir('crash-drill-sixty-');
  dirs.push(dir);
  // The config init writes imports the package, as a user's project has it installed.
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/mcp-crash-drill'), 'dir');
  return dir;
}

interface Results {
  runId: string;
  drills: { key: string; verdict: string }[];
  plan: { drills: number };
  notRepeated?: { key: string; sameAs: string }[];
}
/** One shard of a plain first run (round-robin: drills 1, 62, 123, ... of the plan), its results. */
async function firstRunShard(dir: string): Promise<{ code: number | null; results: Results }> {
  const run = await runCli(['run', '--shard', '1/61', '--out', 'shard'], { cwd: dir });
  const results = JSON.parse(readFileSync(join(dir, 'shard/results.json'), 'utf8')) as Results;
  expect(markedProcesses(results.runId)).toEqual([]);
  return { code: run.code, results };
}

describe('init on a 60-tool server', () => {
  it('writes the tool-independent points once: a first run of 366 drills, none repeated, may-write tools first', async () => {
    const dir = project();
    const init = await runCli(['init', '--cwd', ROOT, 'node', SERVER], { cwd: dir, env: INIT_ENV });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(initLeftovers(marker)).toEqual([]);
    expect(init.stdout.split('\n').slice(0, 3)).toEqual([
      'wrote crash-drill.config.mjs and 61 scenarios (366 drills: each point in crash, close and hang):',
      '  scenarios/lifecycle.yaml  every tool (idle, pre-dispatch: the call is never written, so the tool does not matter)',
      '  scenarios/may-write/tool-01.yaml  tool-01 (may write: in-flight, after-response)',
    ]);
    expect(init.stdout).toContain('\n  scenarios/read-only/tool-60.yaml  tool-60 (read-only: in-flight, after-response)\n');

    // The plan a plain run makes of it, as the run loads and plans it.
    const plan = planRun(await loadScenarios([join(dir, 'scenarios')]));
    expect(plan.drills.map((d) => d.key)).toEqual(PLAN);
    expect(plan.notRepeated).toEqual([]);
    // No tool-independent drill twice: idle and pre-dispatch, each mode once, all the lifecycle's.
    expect(plan.drills.filter((d) => d.point === 'idle' || d.point === 'pre-dispatch').map((d) => d.key)).toEqual(LIFECYCLE);

    // The real CLI plans the same: a shard of the plain first run.
    const { code, results } = await firstRunShard(dir);
    expect(results.plan.drills).toBe(366);
    expect(results.notRepeated).toBeUndefined();
    expect(results.drills.map((d) => `${d.key} ${d.verdict}`)).toEqual(PLAN.filter((_, i) => i % 61 === 0).map((k) => `${k} pass`));
    expect(code).toBe(0);
  }, 120_000);

  it('the other way: what init wrote before (every tool at idle and pre-dispatch) plans to the same drills, 294 listed as not repeated', async () => {
    const dir = project();
    mkdirSync(join(dir, 'scenarios'));
    writeFileSync(
      join(dir, 'crash-drill.config.mjs'),
      "import { defineConfig } from 'mcp-crash-drill';\nexport default defineConfig({ scenarios: ['scenarios'], out: 'crash-drill-report' });\n",
    );
    for (const t of TOOLS)
      writeFileSync(
        join(dir, 'scenarios', `${t.name}.yaml`),
        scenarioYaml({
          id: t.name,
          subject: { command: 'node', args: [SERVER], cwd: ROOT },
          target: { call: t.name, args: { text: 'example' } },
          points: t.readOnly ? ['idle', 'in-flight', 'after-response'] : ['idle', 'pre-dispatch', 'in-flight', 'after-response'],
          modes: ['crash', 'close', 'hang'],
          expectation: ['stops-accepting-calls', { 'exits-within': 2000 }, 'leaves-no-helper'],
        }),
      );
    const plan = planRun(await loadScenarios([join(dir, 'scenarios')]));
    // 40 x 4 x 3 + 20 x 3 x 3 = 660 drills written; every idle and pre-dispatch drill after tool-01's is tool-01's.
    expect(plan.filtered).toHaveLength(660);
    expect(plan.drills).toHaveLength(366);
    expect(plan.notRepeated).toHaveLength(294);
    expect(new Set(plan.notRepeated.map((n) => n.sameAs))).toEqual(new Set(['idle', 'pre-dispatch'].flatMap((p) => MODES.map((m) => `tool-01/${p}/${m}`))));
    expect(plan.drills.filter((d) => d.point === 'idle' || d.point === 'pre-dispatch').map((d) => d.key)).toEqual(
      ['idle', 'pre-dispatch'].flatMap((p) => MODES.map((m) => `tool-01/${p}/${m}`)),
    );

    const { code, results } = await firstRunShard(dir);
    expect(results.plan.drills).toBe(366);
    // results.json names each left-out drill's scenario and profile besides its key and the drill that ran.
    expect(results.notRepeated?.map(({ key, sameAs }) => ({ key, sameAs }))).toEqual(plan.notRepeated);
    expect(results.notRepeated?.[0]).toMatchObject({ scenario: plan.notRepeated[0]!.key.split('/')[0], clientProfile: 'ts-sdk' });
    expect(results.drills.map((d) => d.verdict)).toEqual(Array(6).fill('pass'));
    expect(code).toBe(0);
  }, 120_000);
});
