/**
 * The bundled scenarios' baseline (scenarios/crash-drill.baseline.json), which `npm run drill`
 * gates on: it lists what each deliberately broken fake server must fail and nothing of the
 * well-behaved ones, every entry names a drill the scenarios plan, and a run of every broken
 * server's drills against it exits 0. The well-behaved scenarios' drills (pass-only, no
 * entries) are left out of the run to keep the suite's time: `npm run drill` runs them all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from '../../harness/baseline/load.js';
import { loadScenarios } from '../../harness/config/index.js';
import { planDrills } from '../../harness/plan/plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();
const FILE = join(root, 'scenarios', 'crash-drill.baseline.json');
/** The broken servers the README's first lines name, each caught for the one thing it does wrong. */
const BROKEN = [
  'daemonizes',
  'fire-and-forget-job',
  'github-issue-keyless',
  'ignores-eof',
  'ignores-sigterm',
  'keyless-writer',
  'leaks-child',
  'never-ends-actions',
  'polls-after-loss',
  'records-after-answer',
  'retries-without-key',
  'slow-exit',
  'static-key-holder',
  'stdout-noise',
];

describe('the bundled baseline', () => {
  it('lists the broken servers and only them, each entry a planned drill with a reason', async () => {
    const baseline = loadBaseline(FILE);
    const planned = new Set(planDrills(await loadScenarios([join(root, 'scenarios')])).map((d) => d.key));
    expect([...new Set(baseline.entries.map((e) => e.drill.split('/')[0]))].sort()).toEqual(BROKEN);
    for (const entry of baseline.entries) {
      expect(planned.has(entry.drill), entry.drill).toBe(true);
      expect(entry.verdict).toBe('fail');
      expect(entry.reason).toMatch(new RegExp(`^${entry.drill.split('/')[0]}: `));
    }
    // The cleanup-expectation statements the broken servers miss (the scenarios declare them).
    expect((baseline.statements ?? []).map((s) => `${s.server} ${s.statement}`)).toEqual([
      'daemonizes.js leaves-no-helper',
      'ignores-eof.js exits-within',
      'ignores-eof.js stops-accepting-calls',
      'ignores-sigterm.js exits-within',
      'ignores-sigterm.js stops-accepting-calls',
      'leaks-child.js leaves-no-helper',
      'never-ends-actions.js records-every-action',
      'records-after-answer.js records-every-action',
      'slow-exit.js exits-within',
    ]);
    for (const s of baseline.statements ?? []) expect(s.reason).toMatch(new RegExp(`^${s.server.replace(/\.js$/, '')}: `));
  });

  it('npm run drill gates on it', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.drill).toContain('run scenarios --baseline scenarios/crash-drill.baseline.json');
  });

  it('a run of every broken server against it exits 0: the harness catches exactly what each does wrong', async () => {
    const run = await runCli([
      'run',
      'scenarios',
      '--baseline',
      'scenarios/crash-drill.baseline.json',
      '--only',
      BROKEN.join(','),
      '--out',
      tempDir('crash-drill-bundled-'),
    ]);
    expect(run.stderr).not.toMatch(/crash-drill:/);
    // On a miss or an over-report this shows which drill and why.
    expect(run.stdout.slice(run.stdout.indexOf('\nDrills that did not pass'))).not.toContain('Drills that did not pass');
    expect(lastLine(run.stdout)).toBe(`0 passed, 0 failed, 24 known, 0 unknown`);
    expect(run.stdout).not.toContain('Cleanup expectation not met');
    expect(run.code).toBe(0);
  }, 240_000);
});
