/**
 * `crash-drill check` end to end: the real CLI `run` writes a report folder, then `check` judges
 * the saved logs again without starting anything; the verdicts must equal results.json exactly.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPath } from '../../harness/cli/check-command.js';
import { chainEvents } from '../../harness/evidence/log.js';
import type { DrillResult } from '../../harness/results/types.js';
import { passingDrill } from '../checks/evidence-builder.js';
import { lastLine, runCli } from '../support/cli.js';
import { makeReportFolder, type ReportFixture } from '../evidence/report-fixture.js';

let fx: ReportFixture;
let saved: { drills: DrillResult[]; summary: unknown };
beforeAll(async () => {
  fx = await makeReportFolder();
  saved = JSON.parse(readFileSync(join(fx.out, 'results.json'), 'utf8'));
}, 120_000);
afterAll(() => {
  if (fx) rmSync(fx.dir, { recursive: true, force: true });
});

const verdicts = (drills: DrillResult[]) =>
  Object.fromEntries(
    drills.map((d) => [`${d.scenario}/${d.point}/${d.mode}`, { verdict: d.verdict, checks: Object.fromEntries(d.checks.map((c) => [c.id, c.verdict])) }]),
  );

describe('crash-drill check', () => {
  it('gives every drill the verdict and checks the run gave it, and exits like run', async () => {
    // The fixture covers every outcome, so equality below is not trivial.
    expect(verdicts(saved.drills)).toMatchObject({
      'wb/idle/crash': { verdict: 'pass' },
      'stays-up/idle/crash': { verdict: 'fail', checks: { 'exit-on-eof': 'fail', 'no-survivors': 'fail' } },
      'key-holder/idle/crash': { verdict: 'fail', checks: { 'denied-after-revocation': 'fail' } },
      'no-child/child-spawned/crash': { verdict: 'unknown' },
      'missing/idle/crash': { verdict: 'error' },
    });
    const run = await runCli(['check', join(fx.out, 'evidence')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('1 passed, 2 failed, 1 unknown, 1 error');
    for (const d of saved.drills) {
      const checks = d.checks.map((c) => `${c.id}:${c.verdict}`).join(' ');
      expect(run.stdout).toMatch(new RegExp(`\\] ${d.verdict.toUpperCase()} +${d.scenario} ${d.point}/${d.mode} \\d+ ms ${checks}\\n`));
    }
    expect(run.stdout).toContain('Drills that did not pass:');
    expect(run.stdout).toMatch(/FAIL +stays-up idle\/crash \(cd-[^)]+\): exit-on-eof: the server did not exit on EOF/);
  });

  it('judges the saved logs into exactly the results the run saved, field for field', () => {
    const { results, broken } = checkPath(fx.out);
    expect(broken).toEqual([]);
    // `index` and `attempt` say where the drill sat in the run's plan: the run adds them, the log
    // does not hold them (judge.ts), so they are the only fields a re-judgement cannot give back.
    const judged = (drills: DrillResult[]) => [...drills].sort((a, b) => a.id.localeCompare(b.id)).map(({ index: _i, attempt: _a, ...rest }) => rest);
    expect(JSON.parse(JSON.stringify(judged(results.drills)))).toEqual(judged(saved.drills));
    expect(results.drills.every((d) => d.index === undefined)).toBe(true);
    expect(results.summary).toEqual(saved.summary);
  });

  it('reports a broken log, does not judge it, and exits 1 even when the rest pass', async () => {
    const report = join(fx.dir, 'one-broken');
    cpSync(fx.out, report, { recursive: true });
    const pass = saved.drills.find((d) => d.verdict === 'pass')!;
    const unknown = saved.drills.find((d) => d.verdict === 'unknown')!;
    for (const d of saved.drills) if (d !== pass && d !== unknown) rmSync(join(report, 'evidence', d.evidence!.file));
    // Only what results.json lists is expected: keep just these two there.
    const results = JSON.parse(readFileSync(join(report, 'results.json'), 'utf8'));
    results.drills = results.drills.filter((d: DrillResult) => d.id === pass.id || d.id === unknown.id);
    writeFileSync(join(report, 'results.json'), JSON.stringify(results));
    const clean = await runCli(['check', report]);
    expect([clean.code, lastLine(clean.stdout)]).toEqual([2, '1 passed, 0 failed, 1 unknown']);

    const file = join(report, 'evidence', unknown.evidence!.file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    writeFileSync(file, [lines[0], ...lines.slice(2)].join('\n') + '\n'); // record 2 dropped
    const run = await runCli(['check', report]);
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 0 unknown, 1 broken');
    expect(run.stdout).toContain(`BROKEN ${file}: record 2: 1 record dropped between record 1 and this one`);
    expect(run.stdout).not.toContain('UNKNOWN');
    expect(readdirSync(join(report, 'evidence'))).toHaveLength(2);
  });

  it('a chain that verifies but holds no drill-start is reported as not a drill, not judged', () => {
    const dir = join(fx.dir, 'headless');
    mkdirSync(dir);
    const events = passingDrill()
      .build()
      .events.filter((e) => e.type !== 'drill-start');
    writeFileSync(join(dir, 'headless.jsonl'), chainEvents(events).lines.join('\n') + '\n');
    const { results, broken } = checkPath(dir);
    expect(results.drills).toEqual([]);
    expect(broken.map((b) => [b.problem?.code, b.problem?.message])).toEqual([['not-a-drill', "no drill-start record, so this is not a drill's evidence"]]);
  });

  it('exits 3 for a path that does not exist', async () => {
    const run = await runCli(['check', join(fx.dir, 'nope')]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no such file or folder');
  });
});
