/**
 * One run path (harness/run/run-drills.ts): the CLI and runDrills() give the same drills,
 * verdicts and check verdicts for the same config, and runDrills() now has what only the CLI
 * had: the duplicate-id and `only` checks, the evidence wipe, shards, and an error instead of
 * silently dropping named reporters when `out` is unset.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDrills } from '../../harness/index.js';
import type { RunResults } from '../../harness/results/types.js';
import { runCli } from '../support/cli.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 400 } };

function outcome(results: RunResults) {
  return results.drills.map((d) => ({ key: d.key, verdict: d.verdict, checks: d.checks.map((c) => [c.id, c.verdict]) }));
}

describe('the CLI and runDrills() share one run path', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('crash-drill-one-path-');
    writeFileSync(
      join(dir, 'good.yaml'),
      scenarioYaml({ id: 'good', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash', 'close'], ...FAST }),
    );
    writeFileSync(
      join(dir, 'stays.yaml'),
      scenarioYaml({ id: 'stays', subject: fakeSubject('ignores-eof'), target: { call: 'echo' }, points: ['idle'], modes: ['crash', 'close'], ...FAST }),
    );
    writeFileSync(
      join(dir, 'other.yaml'),
      scenarioYaml({ id: 'other', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash'], ...FAST }),
    );
    // `only` leaves out `other`: both paths must apply it the same way.
    writeFileSync(
      join(dir, 'crash-drill.config.mjs'),
      "export default { scenarios: ['good.yaml', 'stays.yaml', 'other.yaml'], only: ['good', 'stays'], out: 'cli-out' };\n",
    );
  });

  it('gives the same drill keys, verdicts and check verdicts for the same config', async () => {
    const cli = await runCli(['run', '--config', join(dir, 'crash-drill.config.mjs')], { cwd: dir });
    expect(cli.code).toBe(1);
    const fromCli = JSON.parse(readFileSync(join(dir, 'cli-out', 'results.json'), 'utf8')) as RunResults;
    const { default: config } = (await import(join(dir, 'crash-drill.config.mjs'))) as { default: { scenarios: string[]; only: string[] } };
    const { results: fromApi } = await runDrills({ ...config, scenarios: config.scenarios.map((s) => join(dir, s)), out: join(dir, 'api-out') });
    expect(outcome(fromApi)).toEqual(outcome(fromCli));
    expect(outcome(fromApi).map((d) => [d.key, d.verdict])).toEqual([
      ['good/idle/crash', 'pass'],
      ['good/idle/close', 'pass'],
      ['stays/idle/crash', 'fail'],
      ['stays/idle/close', 'fail'],
    ]);
    expect(fromApi.plan).toEqual(fromCli.plan);
  });

  it('runDrills() rejects a duplicate id, an unknown `only` id and named reporters without `out`', async () => {
    const a = scenarioFrom(scenarioYaml({ id: 'twice', subject: fakeSubject('well-behaved'), target: { call: 'echo' } }));
    await expect(runDrills({ scenarios: [join(dir, 'good.yaml'), { ...a, id: 'good' }] })).rejects.toThrow(
      'scenarios: expected unique scenario ids, got "good" both in a file and inline',
    );
    await expect(runDrills({ scenarios: [join(dir, 'good.yaml')], only: ['nope'] })).rejects.toThrow('only: no scenario has the id "nope"; known: good');
    await expect(runDrills({ scenarios: [join(dir, 'good.yaml')], reporters: ['junit'] })).rejects.toThrow(
      'reporters: expected `out` (a report folder) with named reporters, got "junit" and no out',
    );
  });

  it('runDrills() wipes the old evidence of its report folder and runs one shard', async () => {
    const out = join(dir, 'shard-out');
    mkdirSync(join(out, 'evidence'), { recursive: true });
    writeFileSync(join(out, 'evidence', 'left-over.jsonl'), '{}\n');
    const { results } = await runDrills({ scenarios: [join(dir, 'good.yaml')], out, shard: { index: 2, total: 2 } });
    expect(existsSync(join(out, 'evidence', 'left-over.jsonl'))).toBe(false);
    expect(results.shard).toEqual({ index: 2, total: 2 });
    expect(results.drills.map((d) => [d.key, d.verdict])).toEqual([['good/idle/close', 'pass']]);
  });
});
