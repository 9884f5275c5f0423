/**
 * End to end: scenarios of one server that differ only in their target are one drill at idle
 * (harness/plan/not-repeated.ts). The real CLI runs the first, lists the others in results.json
 * (`notRepeated`), says so in one console line and one summary.md line, and a baseline entry of
 * a drill left out absorbs (and goes stale on) the drill that ran in its place. Shards agree on
 * the list and `merge` keeps it; `--repeat` gives every attempt its own drill id.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, lastLine, runCli } from '../support/cli.js';
import { fakeSubject, type ScenarioParts, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 800 } };
const root = tempDir('crash-drill-not-repeated-');
const scenarios = join(root, 'scenarios');
const out = (name: string) => join(root, name);
const cli = (args: string[]): Promise<CliRun> => runCli(args);

interface Results {
  drills: { id: string; key: string; verdict: string; attempt?: number }[];
  summary: Record<string, number>;
  plan: { id: string; drills: number };
  notRepeated?: { key: string; sameAs: string; scenario?: string; clientProfile?: string }[];
  baseline?: { stale: { drill: string; check: string }[] };
}
const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

const LINE =
  "3 drills were not repeated: each is the same drill as one that ran (under client profiles that spawn and lose a server alike a drill gets the same inputs, and at idle and pre-dispatch the target call is never sent, so scenarios of one server that differ only in their target drill the same thing); the matrix shows each with that drill's verdict, marked =, and results.json lists them under notRepeated";
/** Each drill left out with its own scenario and profile (the default's range: the TypeScript SDK version read). */
const NOT_REPEATED = [
  ['wb-b/idle/crash', 'wb-a/idle/crash', 'wb-b'],
  ['wb-b/idle/close', 'wb-a/idle/close', 'wb-b'],
  ['stays-b/idle/crash', 'stays-a/idle/crash', 'stays-b'],
].map(([key, sameAs, scenario]) => ({ key, sameAs, scenario, clientProfile: 'ts-sdk', clientVersions: expect.any(String) }));

beforeAll(() => {
  mkdirSync(scenarios);
  const files: Record<string, string> = {
    // Files load sorted by path: a before b.
    'wb-a.yaml': scenarioYaml({
      id: 'wb-a',
      subject: fakeSubject('well-behaved'),
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle'],
      modes: ['crash', 'close'],
      ...FAST,
    }),
    'wb-b.yaml': scenarioYaml({
      id: 'wb-b',
      subject: fakeSubject('well-behaved'),
      target: { call: 'spawn-helper' },
      points: ['idle'],
      modes: ['crash', 'close'],
      ...FAST,
    }),
    'x-stays-a.yaml': scenarioYaml({
      id: 'stays-a',
      subject: fakeSubject('ignores-eof'),
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle'],
      modes: ['crash'],
      ...FAST,
    }),
    'x-stays-b.yaml': scenarioYaml({
      id: 'stays-b',
      subject: fakeSubject('ignores-eof'),
      target: { call: 'slow', args: { ms: 1 } },
      points: ['idle'],
      modes: ['crash'],
      ...FAST,
    }),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(scenarios, name), text);
  // A baseline written before drills were left out: it names the drills of the b scenarios.
  writeFileSync(
    join(root, 'baseline.json'),
    JSON.stringify({
      version: 1,
      entries: [
        { drill: 'stays-b/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: 'never exits on EOF' },
        { drill: 'stays-b/idle/crash', check: 'no-survivors', verdict: 'fail', reason: 'survives its client' },
        { drill: 'wb-b/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: 'fixed since' },
      ],
    }),
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('drills that cannot differ, through the CLI', () => {
  it('runs one of each, lists the others, and a baseline entry of one left out speaks for the one that ran', async () => {
    const run = await cli(['run', scenarios, '--out', out('whole'), '--baseline', join(root, 'baseline.json'), '--reporter', 'console,markdown']);
    const r = results(out('whole'));
    expect(r.drills.map((d) => `${d.key} ${d.verdict}`)).toEqual(['wb-a/idle/crash pass', 'wb-a/idle/close pass', 'stays-a/idle/crash known']);
    expect(r.notRepeated).toEqual(NOT_REPEATED);
    expect(r.plan.drills).toBe(3);
    // The other way: the entry of the drill left out goes stale when the drill that ran passes.
    expect(r.baseline?.stale.map((e) => `${e.drill} ${e.check}`)).toEqual(['wb-b/idle/crash exit-on-eof']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`\n${LINE}.\n`);
    expect(lastLine(run.stdout)).toBe('2 passed, 0 failed, 1 known, 0 unknown, 1 stale baseline entry');
    const summary = readFileSync(join(out('whole'), 'summary.md'), 'utf8');
    expect(summary).toContain(`\n${LINE}.\n`);
    // The matrix shows each drill left out in its own row, with the verdict of the drill that ran, marked.
    expect(summary).toContain('| well-behaved / wb-b | = ✅ pass | = ✅ pass |\n');
    expect(summary).toContain('| ignores-eof / stays-b | = 🔷 known | – |\n');
  });

  it('under client profiles with the same facts: one drill, the other judged from it under its own row and baseline entries', async () => {
    writeFileSync(
      join(root, 'profile-baseline.json'),
      JSON.stringify({
        version: 1,
        entries: [
          { drill: 'stays-a/idle/crash@cursor', check: 'exit-on-eof', verdict: 'fail', reason: 'never exits on EOF' },
          { drill: 'stays-a/idle/crash@cursor', check: 'no-survivors', verdict: 'fail', reason: 'survives its client' },
        ],
      }),
    );
    const args = ['run', scenarios, '--only', 'stays-a', '--client-profile', 'vscode', '--client-profile', 'cursor', '--out', out('profiles')];
    const run = await cli([...args, '--baseline', join(root, 'profile-baseline.json'), '--reporter', 'console,markdown']);
    const r = results(out('profiles'));
    expect(r.drills.map((d) => `${d.key} ${d.verdict}`)).toEqual(['stays-a/idle/crash@vscode known']);
    expect(r.notRepeated).toEqual([
      expect.objectContaining({ key: 'stays-a/idle/crash@cursor', sameAs: 'stays-a/idle/crash@vscode', scenario: 'stays-a', clientProfile: 'cursor' }),
    ]);
    expect(run.code).toBe(0);
    const summary = readFileSync(join(out('profiles'), 'summary.md'), 'utf8');
    expect(summary).toContain('| ignores-eof / stays-a | vscode@0baa8cd7 | 🔷 known |\n| ignores-eof / stays-a | cursor@observed | = 🔷 known |\n');
    // Cursor's own steps rest on no source, and the report says so though its drill did not run.
    expect(summary).toContain('unsourced client-profile steps used (cursor@observed)');
  });

  it('shards agree on the list, merge keeps it, and --repeat gives every attempt its own id', async () => {
    const shards = await Promise.all([1, 2].map((i) => cli(['run', scenarios, '--out', out(`s${i}`), '--shard', `${i}/2`])));
    expect(shards.map((s) => s.code)).toEqual([1, 0]);
    const [one, two] = [results(out('s1')), results(out('s2'))];
    expect([one.notRepeated, two.notRepeated]).toEqual([NOT_REPEATED, NOT_REPEATED]);
    expect(one.plan.id).toBe(two.plan.id);
    const merge = await cli(['merge', out('s1'), out('s2'), '--out', out('merged'), '--reporter', 'console,markdown']);
    expect(merge.stderr).toBe('');
    expect(results(out('merged')).notRepeated).toEqual(NOT_REPEATED);
    expect(merge.stdout).toContain(`\n${LINE}.\n`);
    expect(readFileSync(join(out('merged'), 'summary.md'), 'utf8')).toContain(`\n${LINE}.\n`);

    // Repeated attempts run past the end of the full plan (indexes of the drills left out included): no id twice.
    // (Counting only the drills that run, attempt 2 of wb-a/idle/crash would take stays-a/idle/crash's index, 4.)
    const repeat = await cli(['run', scenarios, '--out', out('repeat'), '--repeat', '2']);
    expect(repeat.code).toBe(1);
    const rep = results(out('repeat'));
    expect(rep.drills.map((d) => `${d.key}#${d.attempt}`)).toEqual([
      'wb-a/idle/crash#1',
      'wb-a/idle/crash#2',
      'wb-a/idle/close#1',
      'wb-a/idle/close#2',
      'stays-a/idle/crash#1',
      'stays-a/idle/crash#2',
    ]);
    expect(new Set(rep.drills.map((d) => d.id)).size).toBe(6);
  });
});
