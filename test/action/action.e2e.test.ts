/**
 * action.yml, the composite GitHub Action at the repository root, run step by step as a runner
 * would (test/support/action-runner.ts): in a workspace with scenario files and no crash-drill of
 * its own, so the action uses its own build (this checkout's dist/). It writes the job summary and
 * the annotations, gives the report folder to the upload step, and exits as `run` does; two shard
 * jobs and a merge job make the workflow of docs/ci.md.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../../harness/util/paths.js';
import { runAction } from '../support/action-runner.js';
import { fakeSubject, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const ROOT = packageRoot();
const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 800 } };

/** A workspace with two scenarios: well-behaved (passes) and, when asked, ignores-eof (fails exit-on-eof). */
function workspace(withFailure: boolean): string {
  const dir = tempDir('crash-drill-action-');
  mkdirSync(join(dir, 'drills'));
  const target = { call: 'echo', args: { text: 'hi' } };
  writeFileSync(
    join(dir, 'drills', 'wb.yaml'),
    scenarioYaml({ id: 'wb', subject: fakeSubject('well-behaved'), target, points: ['idle', 'after-response'], modes: ['crash'], ...FAST }),
  );
  if (withFailure)
    writeFileSync(
      join(dir, 'drills', 'eof.yaml'),
      scenarioYaml({ id: 'stays-up', subject: fakeSubject('ignores-eof'), target, points: ['idle'], modes: ['crash'], ...FAST }),
    );
  return dir;
}

describe('action.yml', () => {
  it('every drill passing: exit 0, the summary in the job summary, the report folder uploaded under its name', async () => {
    const ws = workspace(false);
    const run = await runAction(ROOT, ws, { scenarios: 'drills' });
    expect(run.steps.map((s) => [s.name, s.code])).toEqual([
      ['Find crash-drill', 0],
      ['Run the drills', 0],
      ['Exit as crash-drill did', 0],
    ]);
    expect(run.outputs.cli.path).toBe(join(ROOT, 'dist/bin/crash-drill.js'));
    expect(run.outputs.drill).toEqual({ 'exit-code': '0', report: 'crash-drill-report', artifact: 'crash-drill-report' });
    for (const file of ['results.json', 'summary.md', 'junit.xml', 'report.html']) expect(existsSync(join(ws, 'crash-drill-report', file)), file).toBe(true);
    expect(run.summary).toBe(`${readFileSync(join(ws, 'crash-drill-report', 'summary.md'), 'utf8')}\n`);
    expect(run.summary).toContain('2 passed, 0 failed, 0 unknown');
    expect(run.steps[1].stdout).not.toContain('::error');
    expect(run.uses).toEqual([{ uses: 'actions/upload-artifact@v4', with: { name: 'crash-drill-report', path: './crash-drill-report' } }]);
  }, 120_000);

  it('a failing drill: the annotation, exit 1 from the last step, and the report still uploaded', async () => {
    const ws = workspace(true);
    const run = await runAction(ROOT, ws, { scenarios: 'drills', out: 'gate' });
    expect(run.outputs.drill['exit-code']).toBe('1');
    expect(run.steps.map((s) => s.code)).toEqual([0, 0, 1]);
    expect(run.code).toBe(1);
    expect(run.steps[1].stdout).toMatch(/^::error title=crash-drill fail%3A stays-up idle\/crash::exit-on-eof: /m);
    expect(run.steps[2].stdout).toContain('crash-drill exited 1');
    expect(run.summary).toContain('2 passed, 1 failed, 0 unknown');
    expect(run.uses[0].with.path).toBe('./gate');
  }, 120_000);

  it('with a baseline that lists the failure: exit 0', async () => {
    const ws = workspace(true);
    const baseline = join(ws, 'known.json');
    const known = (check: string) => ({ drill: 'stays-up/idle/crash', check, verdict: 'fail', reason: 'a live timer' });
    writeFileSync(baseline, `${JSON.stringify({ version: 1, entries: [known('exit-on-eof'), known('no-survivors')] })}\n`);
    const run = await runAction(ROOT, ws, { scenarios: 'drills', baseline: 'known.json' });
    expect(run.outputs.drill['exit-code']).toBe('0');
    expect(run.code).toBe(0);
  }, 120_000);

  it('client-profiles: each drill once per profile (--client-profile once each), the default keeping its key', async () => {
    const ws = workspace(false);
    const run = await runAction(ROOT, ws, { scenarios: 'drills', 'client-profiles': 'ts-sdk, codex zed' });
    expect(run.code).toBe(0);
    const results = JSON.parse(readFileSync(join(ws, 'crash-drill-report', 'results.json'), 'utf8')) as {
      drills: Array<{ key: string; clientProfile: string }>;
    };
    expect(results.drills.map((d) => [d.key, d.clientProfile]).sort()).toEqual(
      [
        ['wb/idle/crash', 'ts-sdk'],
        ['wb/idle/crash@codex', 'codex'],
        ['wb/idle/crash@zed', 'zed'],
        ['wb/after-response/crash', 'ts-sdk'],
        ['wb/after-response/crash@codex', 'codex'],
        ['wb/after-response/crash@zed', 'zed'],
      ].sort(),
    );
    expect(run.summary).toContain('6 passed, 0 failed, 0 unknown');
    // A row per client profile in the summary's matrix, each naming the range drilled (Codex: known by what was read).
    expect(run.summary).toContain('| subject / scenario | client | idle / crash | after-response / crash |');
    expect(run.summary).toMatch(/\n\| [^|]+ \/ wb \| codex@newest-read \| ✅ pass \| ✅ pass \|\n/);
  }, 120_000);

  it('two shard jobs and a merge job, as docs/ci.md shows: one artifact a shard, and the merge exits as the whole run', async () => {
    const ws = workspace(true);
    const shards = [1, 2].map(async (i) => {
      const run = await runAction(ROOT, ws, { scenarios: 'drills', shard: `${i}/2`, out: `shards/report-${i}` });
      expect(run.outputs.drill.artifact).toBe(`crash-drill-report-${i}`);
      expect(run.uses[0].with.path).toBe(`./shards/report-${i}`);
      return run.outputs.drill['exit-code'];
    });
    // Three drills in two shards: the failing one is in exactly one of them.
    expect((await Promise.all(shards)).sort()).toEqual(['0', '1']);
    const merge = await runAction(ROOT, ws, { 'merge-from': 'shards/report-*', out: 'merged' });
    expect(merge.outputs.drill['exit-code']).toBe('1');
    expect(merge.code).toBe(1);
    expect(merge.summary).toContain('2 passed, 1 failed, 0 unknown');
    expect(JSON.parse(readFileSync(join(ws, 'merged', 'results.json'), 'utf8')).drills).toHaveLength(3);
  }, 180_000);

  it('an input is data, never code: $(...) in args reaches crash-drill as text (exit 3, a usage error) and runs nothing', async () => {
    const ws = workspace(false);
    const run = await runAction(ROOT, ws, { scenarios: 'drills', args: '--only $(touch pwned)' });
    expect(existsSync(join(ws, 'pwned'))).toBe(false);
    expect(run.outputs.drill['exit-code']).toBe('3');
    expect(run.steps[1].stderr).toContain('pwned): no such file or folder');
    expect(run.code).toBe(3);
  }, 60_000);

  it("uses the project's own mcp-crash-drill when npm installed one", async () => {
    const ws = workspace(false);
    mkdirSync(join(ws, 'node_modules'));
    symlinkSync(ROOT, join(ws, 'node_modules', 'mcp-crash-drill'));
    const run = await runAction(ROOT, ws, { scenarios: 'drills', upload: 'false' });
    expect(run.outputs.cli.path).toBe(join(ws, 'node_modules/mcp-crash-drill/dist/bin/crash-drill.js'));
    expect(run.code).toBe(0);
  }, 60_000);

  it('the workflows of the README and docs/ give the action only inputs it has', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const blocksOf = (page: string) =>
      [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
        .map((m) => m[1])
        .filter((text) => text.includes('OWNER/mcp-crash-drill@REF'));
    const steps = (block: string) => {
      const workflow = parse(block) as { jobs: Record<string, { steps: Array<{ uses?: string; with?: Record<string, unknown> }> }> };
      return Object.values(workflow.jobs).flatMap((job) => job.steps.filter((step) => step.uses === 'OWNER/mcp-crash-drill@REF'));
    };
    // The README's one job; the step beside a language's own tests (docs/languages.md, "Servers in
    // Go, Rust, Java and C#"); and the sharded workflow of docs/ci.md, "As a GitHub Action" (its
    // shards, then its merge).
    expect(blocksOf('README.md').map((block) => steps(block).length)).toEqual([1]);
    expect(blocksOf('docs/languages.md').map((block) => steps(block).length)).toEqual([1]);
    expect(blocksOf('docs/ci.md').map((block) => steps(block).length)).toEqual([2]);
    const used = pages.flatMap(blocksOf).flatMap(steps);
    expect(used.length).toBeGreaterThanOrEqual(4);
    const inputs = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: object }).inputs);
    expect(used.flatMap((step) => Object.keys(step.with ?? {})).filter((name) => !inputs.includes(name))).toEqual([]);
  });
});
