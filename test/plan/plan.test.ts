import { describe, expect, it } from 'vitest';
import { parseScenario, type KillMode, type KillPoint, type Scenario } from '../../harness/config/index.js';
import { planDrills, planRun } from '../../harness/plan/plan.js';
import { scenarioYaml } from '../support/scenarios.js';

/** A scenario as the CLI parses it from its file (every default filled in), from a few lines of YAML. */
function scenario(id: string, points: KillPoint[], modes: KillMode[]): Scenario {
  const yaml = scenarioYaml({
    id,
    subject: { command: 'node', args: ['server.js'] },
    target: { call: 'echo' },
    points,
    modes,
    timeouts: { handshake: 10000, point: 5000, 'close-wait': 2000 },
    expect: { 'exit-on-eof': { deadline: 1000 }, 'no-survivors': { grace: 500 } },
  });
  return parseScenario(yaml, `/tmp/scenarios/${id}.yaml`);
}

const A = scenario('alpha', ['idle', 'in-flight'], ['crash', 'close']);
const B = scenario('beta', ['idle', 'after-response'], ['crash', 'hang']);

const keysOf = (drills: ReturnType<typeof planDrills>) => drills.map((d) => [d.index, d.key]);

describe('planDrills', () => {
  it('orders scenario × point × mode in file order, indexed from 0', () => {
    expect(keysOf(planDrills([A, B]))).toEqual([
      [0, 'alpha/idle/crash'],
      [1, 'alpha/idle/close'],
      [2, 'alpha/in-flight/crash'],
      [3, 'alpha/in-flight/close'],
      // beta/idle/crash (4) is the same drill as alpha/idle/crash: the same server, and at idle the
      // target is never sent (harness/plan/not-repeated.ts, test/plan/not-repeated.test.ts).
      [5, 'beta/idle/hang'],
      [6, 'beta/after-response/crash'],
      [7, 'beta/after-response/hang'],
    ]);
  });

  it('keeps the scenario object and its point and mode on each drill', () => {
    const [first, , , last] = planDrills([A]);
    expect(first.scenario).toBe(A);
    expect([first.point, first.mode]).toEqual(['idle', 'crash']);
    expect([last.point, last.mode]).toEqual(['in-flight', 'close']);
  });

  it('--only keeps the named scenarios with their indexes in the full plan', () => {
    expect(keysOf(planDrills([A, B], { only: ['beta'] }))).toEqual([
      [4, 'beta/idle/crash'],
      [5, 'beta/idle/hang'],
      [6, 'beta/after-response/crash'],
      [7, 'beta/after-response/hang'],
    ]);
  });

  it('--point keeps the named points, indexes unchanged', () => {
    expect(keysOf(planDrills([A, B], { points: ['in-flight', 'after-response'] }))).toEqual([
      [2, 'alpha/in-flight/crash'],
      [3, 'alpha/in-flight/close'],
      [6, 'beta/after-response/crash'],
      [7, 'beta/after-response/hang'],
    ]);
  });

  it('--mode keeps the named modes, indexes unchanged', () => {
    expect(keysOf(planDrills([A, B], { modes: ['hang'] }))).toEqual([
      [5, 'beta/idle/hang'],
      [7, 'beta/after-response/hang'],
    ]);
  });

  it('combines filters with AND', () => {
    expect(keysOf(planDrills([A, B], { only: ['alpha'], points: ['idle'], modes: ['close'] }))).toEqual([[1, 'alpha/idle/close']]);
    expect(planDrills([A, B], { only: ['alpha'], modes: ['hang'] })).toEqual([]);
  });

  it('treats empty filter lists as no filter', () => {
    // Eight drills, one of them (beta/idle/crash) the same as alpha/idle/crash.
    expect(planDrills([A, B], { only: [], points: [], modes: [] })).toHaveLength(7);
  });

  it('gives the same drill the same index whatever the filter', () => {
    const full = new Map(planRun([A, B]).filtered.map((d) => [d.key, d.index]));
    const filters = [{ only: ['alpha'] }, { points: ['idle' as const] }, { modes: ['crash' as const] }, { only: ['beta'], modes: ['hang' as const] }];
    for (const filter of filters) {
      const drills = planDrills([A, B], filter);
      expect(drills.length).toBeGreaterThan(0);
      for (const drill of drills) expect(drill.index).toBe(full.get(drill.key));
    }
  });

  it('plans nothing for no scenarios or an unknown scenario id', () => {
    expect(planDrills([])).toEqual([]);
    expect(planDrills([A, B], { only: ['gamma'] })).toEqual([]);
  });
});
