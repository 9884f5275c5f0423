/**
 * The bundled scenarios' baseline (scenarios/crash-drill.baseline.json), which `npm run drill`
 * gates on: it lists what each deliberately broken fake server must fail and nothing of the
 * well-behaved ones, and every entry names a drill the scenarios plan. The run that gates on it,
 * `npm run drill`'s own (every bundled scenario, each broken server caught for exactly what it does
 * wrong, exit 0), is test/results/diagnosis.e2e.test.ts's, which judges its diagnoses too: one
 * run of the bundled set for both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBaseline } from '../../harness/baseline/load.js';
import { loadScenarios } from '../../harness/config/index.js';
import { planDrills } from '../../harness/plan/plan.js';
import { packageRoot } from '../../harness/util/paths.js';

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
});
