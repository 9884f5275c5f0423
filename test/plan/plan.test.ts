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

  it('--point chooses the points of every scenario: its own drills keep their indexes, the chosen ones come after the full plan', () => {
    expect(keysOf(planDrills([A, B], { points: ['in-flight', 'after-response'] }))).toEqual([
      [2, 'alpha/in-flight/crash'],
      [3, 'alpha/in-flight/close'],
      [8, 'alpha/after-response/crash'],
      [9, 'alpha/after-response/close'],
      [10, 'beta/in-flight/crash'],
      [11, 'beta/in-flight/hang'],
      [6, 'beta/after-response/crash'],
      [7, 'beta/after-response/hang'],
    ]);
  });

  it('--mode chooses the modes of every scenario, listed in its file or not', () => {
    const hang = planRun([A, B], { modes: ['hang'] });
    expect(keysOf(hang.drills)).toEqual([
      [8, 'alpha/idle/hang'],
      [9, 'alpha/in-flight/hang'],
      [7, 'beta/after-response/hang'],
    ]);
    // At idle alpha and beta are the same drill (the same server, the target never sent).
    expect(hang.notRepeated).toEqual([{ key: 'beta/idle/hang', sameAs: 'alpha/idle/hang' }]);
    const onlyCrash = scenario('gamma', ['idle'], ['crash']);
    expect(keysOf(planDrills([onlyCrash], { modes: ['stop'] }))).toEqual([[1, 'gamma/idle/stop']]);
    expect(keysOf(planDrills([onlyCrash], { modes: ['crash', 'close', 'stop'] }))).toEqual([
      [0, 'gamma/idle/crash'],
      [1, 'gamma/idle/close'],
      [2, 'gamma/idle/stop'],
    ]);
  });

  it('combines the choices with --only, which keeps scenarios', () => {
    expect(keysOf(planDrills([A, B], { only: ['alpha'], points: ['idle'], modes: ['close'] }))).toEqual([[1, 'alpha/idle/close']]);
    expect(keysOf(planDrills([A, B], { only: ['alpha'], modes: ['hang'] }))).toEqual([
      [8, 'alpha/idle/hang'],
      [9, 'alpha/in-flight/hang'],
    ]);
  });

  it('treats empty lists as no choice', () => {
    // Eight drills, one of them (beta/idle/crash) the same as alpha/idle/crash.
    expect(planDrills([A, B], { only: [], points: [], modes: [] })).toHaveLength(7);
  });

  it("gives a drill of the scenarios' own lists the same index whatever the filter, and a chosen one an index past them", () => {
    const full = new Map(planRun([A, B]).filtered.map((d) => [d.key, d.index]));
    const filters = [
      { only: ['alpha'] },
      { points: ['idle' as const] },
      { modes: ['crash' as const, 'stop' as const] },
      { only: ['beta'], modes: ['hang' as const] },
    ];
    for (const filter of filters) {
      const plan = planRun([A, B], filter);
      expect(plan.drills.length).toBeGreaterThan(0);
      for (const drill of plan.drills) {
        const own = full.get(drill.key);
        if (own !== undefined) expect(drill.index).toBe(own);
        // The full plan has 8 drills (indexes 0 to 7), one of them not repeated.
        else expect(drill.index >= 8 && drill.index < plan.size).toBe(true);
      }
    }
  });

  it('plans nothing for no scenarios or an unknown scenario id', () => {
    expect(planDrills([])).toEqual([]);
    expect(planDrills([A, B], { only: ['gamma'] })).toEqual([]);
  });
});

describe('what the plan leaves out, and why', () => {
  const idleOnly = parseScenario(
    scenarioYaml({ id: 'bare', subject: { command: 'node', args: ['server.js'] }, points: ['idle'], modes: ['crash'] }),
    '/tmp/scenarios/bare.yaml',
  );
  const leftOut = (plan: ReturnType<typeof planRun>) => plan.leftOut.map((l) => [l.key, l.chosen, l.reason]);
  const CANCEL_AT = (point: string) =>
    `cancel needs a call in flight to cancel, and at ${point} there is none (in-flight, sent, confirmed, child-spawned have one)`;

  it('--mode cancel: drilled where a call is in flight, left out with why where none is', () => {
    const plan = planRun([A], { modes: ['cancel'] });
    expect(keysOf(plan.drills)).toEqual([[4, 'alpha/in-flight/cancel']]);
    expect(leftOut(plan)).toEqual([['alpha/idle/cancel', true, CANCEL_AT('idle')]]);
  });

  it('--mode cancel on a scenario without a target: nothing of it, and why', () => {
    const plan = planRun([idleOnly], { modes: ['cancel'] });
    expect(plan.drills).toEqual([]);
    expect(leftOut(plan)).toEqual([['bare/idle/cancel', true, 'cancel needs a target call to cancel, and the scenario has no target']]);
  });

  it('--point that needs a target, on a scenario without one: left out, and why', () => {
    const plan = planRun([idleOnly, A], { points: ['idle', 'after-response'], modes: ['crash'] });
    expect(keysOf(plan.drills)).toEqual([
      [0, 'bare/idle/crash'],
      [1, 'alpha/idle/crash'],
      [5, 'alpha/after-response/crash'],
    ]);
    expect(leftOut(plan)).toEqual([['bare/after-response/crash', true, 'after-response is reached through the target call, and the scenario has no target']]);
  });

  it('--point sent on a scenario with no remote: section: left out, and why; one that lists sent itself is drilled as written', () => {
    const plan = planRun([A], { points: ['sent'], modes: ['crash'] });
    expect(plan.drills).toEqual([]);
    expect(leftOut(plan)).toEqual([
      ['alpha/sent/crash', true, "sent is the drill remote's moment, and the scenario has no remote: section (the server's writes must reach the remote)"],
    ]);
    const own = scenario('own', ['sent'], ['crash']);
    expect(keysOf(planRun([own], { modes: ['crash'] }).drills)).toEqual([[0, 'own/sent/crash']]);
  });

  it("a scenario's own cancel at idle is left out without a word (chosen: false), as always", () => {
    const own = scenario('own', ['idle', 'in-flight'], ['crash', 'cancel']);
    const plan = planRun([own]);
    expect(keysOf(plan.drills)).toEqual([
      [0, 'own/idle/crash'],
      [1, 'own/in-flight/crash'],
      [2, 'own/in-flight/cancel'],
    ]);
    expect(leftOut(plan)).toEqual([['own/idle/cancel', false, CANCEL_AT('idle')]]);
  });

  it('says nothing of a scenario --only leaves out', () => {
    expect(planRun([A, idleOnly], { only: ['alpha'], modes: ['cancel'] }).leftOut.map((l) => l.scenario)).toEqual(['alpha']);
  });
});
