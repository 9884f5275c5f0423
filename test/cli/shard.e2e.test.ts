/**
 * End to end: `run --shard i/n` three times, then `merge`, equals one unsharded run, drill for
 * drill; `merge` refuses mismatched versions and missing or overlapping shards; `--repeat`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, noChildYaml, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

// Short windows, yet wide enough for a server that does exit on EOF to do it with four runs of
// two drills each on two busy cores (at 800 ms, well-behaved missed it once in a loaded CI run).
const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 3000 }, 'no-survivors': { grace: 1000 } }, timeouts: { 'close-wait': 3000 } };
const root = tempDir('crash-drill-shard-');

interface Drill {
  id: string;
  key: string;
  index: number;
  attempt?: number;
  verdict: string;
  checks: { id: string; verdict: string }[];
  evidence: { file: string } | null;
}
const results = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    drills: Drill[];
    summary: unknown;
    shard?: unknown;
    plan: { id: string };
    harness: { version: string };
    flaky: unknown[];
  };
/** What must not depend on how the run was split: the key, the verdict and every check's verdict, in plan order. */
const outcome = (d: Drill) => ({ key: d.key, index: d.index, verdict: d.verdict, checks: d.checks.map((c) => `${c.id}:${c.verdict}`) });

// Six fast drills: four passes, a failure (ignores EOF) and an unknown (a point never reached).
const scenarios = join(root, 'scenarios');
const out = (name: string) => join(root, name);

beforeAll(() => {
  mkdirSync(scenarios, { recursive: true });
  const files: Record<string, string> = {
    'a.yaml': scenarioYaml({
      id: 'wb',
      subject: fakeSubject('well-behaved'),
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle', 'after-response'],
      modes: ['crash', 'close'],
      ...FAST,
    }),
    'b.yaml': scenarioYaml({
      id: 'stays-up',
      subject: fakeSubject('ignores-eof'),
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle'],
      modes: ['crash'],
      ...FAST,
    }),
    'c.yaml': noChildYaml(),
  };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(scenarios, name), text);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('crash-drill run --shard and merge', () => {
  it('three shards merged equal one unsharded run, drill for drill', async () => {
    const runs = await Promise.all([
      runCli(['run', scenarios, '--out', out('whole'), '--concurrency', '2']),
      ...[1, 2, 3].map((i) => runCli(['run', scenarios, '--out', out(`s${i}`), '--shard', `${i}/3`, '--concurrency', '2'])),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, expect.any(Number), expect.any(Number), expect.any(Number)]);
    const shards = [1, 2, 3].map((i) => results(out(`s${i}`)));
    expect(shards.map((s) => s.shard)).toEqual([
      { index: 1, total: 3 },
      { index: 2, total: 3 },
      { index: 3, total: 3 },
    ]);
    expect(shards.map((s) => s.drills.length)).toEqual([2, 2, 2]);
    expect(new Set(shards.map((s) => s.plan.id)).size).toBe(1);

    const merge = await runCli(['merge', out('s1'), out('s2'), out('s3'), '--out', out('merged')]);
    expect(merge.stderr).toBe('');
    expect(merge.code).toBe(1);
    expect(lastLine(merge.stdout)).toBe('4 passed, 1 failed, 1 unknown');

    const whole = results(out('whole'));
    const merged = results(out('merged'));
    expect(whole.drills.map((d) => d.key)).toEqual([
      'wb/idle/crash',
      'wb/idle/close',
      'wb/after-response/crash',
      'wb/after-response/close',
      'stays-up/idle/crash',
      'no-child/child-spawned/crash',
    ]);
    expect(merged.drills.map(outcome)).toEqual(whole.drills.map(outcome));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.summary).toEqual({ pass: 4, fail: 1, unknown: 1, error: 0 });
    expect(merged.plan).toEqual(whole.plan);
    expect(merged.shard).toBeUndefined();
    // Every drill's evidence log is in the merged folder, byte for byte the shard's.
    expect(readdirSync(join(out('merged'), 'evidence')).sort()).toEqual(merged.drills.map((d) => d.evidence!.file).sort());
    for (const d of merged.drills) {
      const from = [1, 2, 3].map((i) => join(out(`s${i}`), 'evidence', d.evidence!.file)).find(existsSync)!;
      expect(readFileSync(join(out('merged'), 'evidence', d.evidence!.file), 'utf8')).toBe(readFileSync(from, 'utf8'));
    }
  });

  it('refuses results of another harness version, another plan, a missing or a repeated shard (exit 3)', async () => {
    // Uses the shard folders of the first test.
    expect(existsSync(join(out('s3'), 'results.json'))).toBe(true);
    cpSync(out('s3'), out('s3-old'), { recursive: true });
    const old = results(out('s3-old'));
    writeFileSync(join(out('s3-old'), 'results.json'), JSON.stringify({ ...old, harness: { ...old.harness, version: '0.0.1-old' } }));
    const version = await runCli(['merge', out('s1'), out('s2'), out('s3-old'), '--out', out('m-version')]);
    expect(version.code).toBe(3);
    expect(version.stderr).toMatch(/crash-drill: merge: different harness versions: .*0\.0\.1-old/);
    expect(existsSync(join(out('m-version'), 'results.json'))).toBe(false);

    const missing = await runCli(['merge', out('s1'), out('s2'), '--out', out('m-missing')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('missing shard 3/3');

    const twice = await runCli(['merge', out('s1'), out('s2'), out('s3'), out('s2'), '--out', out('m-twice')]);
    expect(twice.code).toBe(3);
    expect(twice.stderr).toMatch(/shard 2\/3 given twice/);

    // The unsharded run is another split of the same plan: merging it with shards would double drills.
    const mixed = await runCli(['merge', out('whole'), out('s1'), '--out', out('m-mixed')]);
    expect(mixed.code).toBe(3);
    expect(mixed.stderr).toContain('different shard counts');

    const into = await runCli(['merge', out('s1'), out('s2'), out('s3'), '--out', out('s1')]);
    expect(into.code).toBe(3);
    expect(into.stderr).toContain('is one of the folders to merge');
  });

  it.each(['0/3', '4/3', '2', 'x/y'])('refuses --shard %s with a usage error (exit 3)', async (spec) => {
    const run = await runCli(['run', scenarios, '--out', out('bad'), '--shard', spec]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--shard');
    expect(existsSync(join(out('bad'), 'results.json'))).toBe(false);
  });

  it('--repeat runs every drill n times under its own id and keeps every attempt', async () => {
    const dir = join(root, 'repeat');
    mkdirSync(dir);
    cpSync(join(scenarios, 'a.yaml'), join(dir, 'a.yaml'));
    const run = await runCli(['run', dir, '--out', out('rep'), '--repeat', '2', '--concurrency', '2']);
    expect(run.code).toBe(0);
    const r = results(out('rep'));
    expect(r.drills.map((d) => [d.key, d.attempt])).toEqual(
      ['wb/idle/crash', 'wb/idle/close', 'wb/after-response/crash', 'wb/after-response/close'].flatMap((k) => [
        [k, 1],
        [k, 2],
      ]),
    );
    expect(new Set(r.drills.map((d) => d.id)).size).toBe(8);
    expect(r.drills.every((d) => d.verdict === 'pass')).toBe(true);
    expect(r.flaky).toEqual([]);
    expect(lastLine(run.stdout)).toBe('8 passed, 0 failed, 0 unknown');
  });
});
