/**
 * A plan of no drills (harness/run/run-drills.ts): runDrills() throws a NoDrillsError naming why
 * each scenario gave none, before anything is written, unless `passWithNoDrills`; then the run
 * runs nothing and passes. And the chosen mode that a scenario lists nowhere is drilled.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NoDrillsError, runDrills, UserError } from '../../harness/index.js';
import { fakeSubject, scenarioFrom, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const bare = () =>
  scenarioFrom(
    scenarioYaml({ id: 'bare', subject: fakeSubject('well-behaved'), points: ['idle'], modes: ['crash'], expect: { 'no-survivors': { grace: 400 } } }),
  );

describe('runDrills() and a plan of no drills', () => {
  it('throws a NoDrillsError (name, stable code, reasons) and writes nothing', async () => {
    const out = join(tempDir('crash-drill-no-drills-'), 'out');
    const error = await runDrills({ scenarios: [bare()], modes: ['cancel'], out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoDrillsError);
    expect(error).toBeInstanceOf(UserError);
    const e = error as NoDrillsError;
    expect([e.name, e.code]).toEqual(['NoDrillsError', 'CRASH_DRILL_NO_DRILLS']);
    expect(e.reasons).toEqual(['bare: cancel needs a target call to cancel, and the scenario has no target (idle/cancel)']);
    expect(e.message.split('\n')[0]).toBe(
      'no drill to run (modes cancel): the plan of 1 scenario is empty, and a run of no drills fails (--pass-with-no-drills, or passWithNoDrills, lets it pass)',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('with passWithNoDrills runs nothing and passes', async () => {
    const { results } = await runDrills({ scenarios: [bare()], modes: ['cancel'], passWithNoDrills: true });
    expect(results.drills).toEqual([]);
    expect(results.summary).toMatchObject({ pass: 0, fail: 0, unknown: 0, error: 0 });
  });

  it('modes choose: a scenario that lists crash alone is drilled in stop', async () => {
    const { results } = await runDrills({ scenarios: [bare()], modes: ['stop'] });
    expect(results.drills.map((d) => `${d.key} ${d.verdict}`)).toEqual(['bare/idle/stop pass']);
  });
});
