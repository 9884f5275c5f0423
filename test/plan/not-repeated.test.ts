// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenarios hold `{{...}}` templates as plain text, which is what is tested
/**
 * The planner runs once a drill that cannot differ (harness/plan/not-repeated.ts): at idle and
 * pre-dispatch the target call is never sent, so two scenarios of one server that differ only in
 * id, description, target and expectation are one drill there. Proven both ways: everything that
 * can change what happens or how it is judged keeps the drills apart, and so does every other
 * point and the cancel mode.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario, type Scenario } from '../../harness/config/index.js';
import { sameDrillKey } from '../../harness/plan/not-repeated.js';
import { planRun } from '../../harness/plan/plan.js';
import type { PlannedDrill } from '../../harness/plan/types.js';
import { type ScenarioParts, scenarioYaml } from '../support/scenarios.js';

/** A scenario of the server `node server.js` as the CLI parses it, with `parts` over the defaults. */
function scenario(id: string, parts: ScenarioParts = {}, dir = '/p/scenarios'): Scenario {
  const yaml = scenarioYaml({
    id,
    subject: { command: 'node', args: ['server.js'] },
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle', 'pre-dispatch', 'in-flight', 'after-response'],
    modes: ['crash', 'close', 'hang'],
    ...parts,
  });
  return parseScenario(yaml, `${dir}/${id}.yaml`);
}

const keys = (drills: readonly PlannedDrill[]) => drills.map((d) => d.key);
/** The drills of `b` the plan keeps beside `a` (a's come first). */
const keptOfB = (a: Scenario, b: Scenario) => keys(planRun([a, b]).drills).filter((k) => k.startsWith(`${b.id}/`));

const EVERY_B_DRILL = ['pre-dispatch', 'idle', 'in-flight', 'after-response'].flatMap((p) => ['crash', 'close', 'hang'].map((m) => `b/${p}/${m}`)).sort();

describe('drills that cannot differ', () => {
  it('two scenarios of one server with other targets are one drill at idle and pre-dispatch, two elsewhere', () => {
    const a = scenario('a', { description: 'one', expectation: ['stops-accepting-calls'] });
    const b = scenario('b', { description: 'two', target: { call: 'write', args: { op: 'deploy' } }, expectation: ['leaves-no-helper'] });
    const plan = planRun([a, b]);
    expect(keys(plan.drills)).toEqual([
      'a/idle/crash',
      'a/idle/close',
      'a/idle/hang',
      'a/pre-dispatch/crash',
      'a/pre-dispatch/close',
      'a/pre-dispatch/hang',
      'a/in-flight/crash',
      'a/in-flight/close',
      'a/in-flight/hang',
      'a/after-response/crash',
      'a/after-response/close',
      'a/after-response/hang',
      'b/in-flight/crash',
      'b/in-flight/close',
      'b/in-flight/hang',
      'b/after-response/crash',
      'b/after-response/close',
      'b/after-response/hang',
    ]);
    expect(plan.notRepeated).toEqual(
      ['idle', 'pre-dispatch'].flatMap((p) => ['crash', 'close', 'hang'].map((m) => ({ key: `b/${p}/${m}`, sameAs: `a/${p}/${m}` }))),
    );
    // What the scenarios declared is read from every drill the filters kept; indexes stay those of the full plan.
    expect(plan.filtered).toHaveLength(24);
    expect(plan.size).toBe(24);
    expect(plan.drills.find((d) => d.key === 'b/in-flight/crash')?.index).toBe(18);
  });

  it('a third scenario is the same drill as the first, not the second', () => {
    const plan = planRun([scenario('a'), scenario('b', { target: { call: 'x' } }), scenario('c', { target: { call: 'y' } })], {
      points: ['idle'],
      modes: ['crash'],
    });
    expect(keys(plan.drills)).toEqual(['a/idle/crash']);
    expect(plan.notRepeated).toEqual([
      { key: 'b/idle/crash', sameAs: 'a/idle/crash' },
      { key: 'c/idle/crash', sameAs: 'a/idle/crash' },
    ]);
  });

  it('runs after the filters: --only the second scenario keeps its idle drills', () => {
    const a = scenario('a');
    const b = scenario('b', { target: { call: 'write' } });
    expect(keys(planRun([a, b], { only: ['b'], modes: ['crash'] }).drills)).toEqual([
      'b/idle/crash',
      'b/pre-dispatch/crash',
      'b/in-flight/crash',
      'b/after-response/crash',
    ]);
    expect(planRun([a, b], { points: ['in-flight'] }).notRepeated).toEqual([]);
  });

  it('a --protocol pin applies before: both pinned, still one drill', () => {
    const plan = planRun([scenario('a'), scenario('b', { target: { call: 'write' } })], { protocol: '2025-11-25', points: ['idle'], modes: ['crash'] });
    expect(keys(plan.drills)).toEqual(['a/idle/crash']);
  });

  it('a subjects: scenario is matched subject by subject', () => {
    const subjects = [
      { name: 'one', command: 'node', args: ['one.js'] },
      { name: 'two', command: 'node', args: ['two.js'] },
    ];
    const plan = planRun(
      [scenario('a', { subject: undefined, subjects }), scenario('b', { subject: undefined, subjects: [subjects[1]!], target: { call: 'write' } })],
      { points: ['idle'], modes: ['crash'] },
    );
    expect(keys(plan.drills)).toEqual(['a/one/idle/crash', 'a/two/idle/crash']);
    expect(plan.notRepeated).toEqual([{ key: 'b/idle/crash', sameAs: 'a/two/idle/crash' }]);
  });

  // The other way: each of these can change what happens before or after the kill, or how it is judged.
  const differences: Array<[string, ScenarioParts]> = [
    ['subject args', { subject: { command: 'node', args: ['other.js'] } }],
    ['subject command', { subject: { command: 'nodejs', args: ['server.js'] } }],
    ['subject env', { subject: { command: 'node', args: ['server.js'], env: { LOG: 'debug' } } }],
    ['subject cwd', { subject: { command: 'node', args: ['server.js'], cwd: '/elsewhere' } }],
    ['subject name', { subject: { command: 'node', args: ['server.js'], name: 'other' } }],
    ['setup steps', { setup: [{ call: 'subscribe' }] }],
    ['the exit deadline', { expect: { 'exit-on-eof': { deadline: 3000 } } }],
    ['the no-survivors grace', { expect: { 'no-survivors': { grace: 500 } } }],
    ['a check turned off', { expect: { 'stdout-clean': false } }],
    ['the handshake timeout', { timeouts: { handshake: 10000 } }],
    ['the close wait', { timeouts: { 'close-wait': 500 } }],
    ['the protocol', { protocol: '2026-07-28' }],
    ['the record bounds', { record: { 'stdout-lines': 10 } }],
    ['a remote section', { remote: {} }],
    ['the remote revocation delay', { remote: { 'revoke-after': 1000 } }],
    ['an {{env.NAME}} in the target args (unset: an error; set: redacted)', { target: { call: 'echo', args: { text: '{{env.API_TOKEN}}' } } }],
  ];
  for (const [what, parts] of differences) {
    it(`not one drill when they differ in ${what}`, () => {
      const b = scenario('b', { target: { call: 'write' }, ...parts });
      expect(keptOfB(scenario('a'), b).sort()).toEqual(EVERY_B_DRILL);
    });
  }

  it('with the recovery retry on, the target counts in crash and close (the retry sends it), not in hang', () => {
    const a = scenario('a', { remote: {} });
    const b = scenario('b', { remote: {}, target: { call: 'write' } });
    expect(a.retry).toBe(true);
    expect(keptOfB(a, b)).toEqual([
      'b/idle/crash',
      'b/idle/close',
      'b/pre-dispatch/crash',
      'b/pre-dispatch/close',
      'b/in-flight/crash',
      'b/in-flight/close',
      'b/in-flight/hang',
      'b/after-response/crash',
      'b/after-response/close',
      'b/after-response/hang',
    ]);
    // The same target with the retry on: one drill.
    expect(keptOfB(a, scenario('b', { remote: {} }))).toEqual([
      'b/in-flight/crash',
      'b/in-flight/close',
      'b/in-flight/hang',
      'b/after-response/crash',
      'b/after-response/close',
      'b/after-response/hang',
    ]);
    // The retry turned off: the target never goes out.
    expect(keptOfB(scenario('a', { remote: {}, retry: false }), scenario('b', { remote: {}, retry: false, target: { call: 'write' } }))).not.toContain(
      'b/idle/crash',
    );
  });

  it('{{scenario.dir}} makes the folder count; otherwise scenarios in other folders with the same cwd are one drill', () => {
    const templated = { subject: { command: 'node', args: ['{{scenario.dir}}/server.js'] } };
    const a = scenario('a', templated, '/p/one');
    expect(keptOfB(a, scenario('b', { ...templated, target: { call: 'write' } }, '/p/two'))).toContain('b/idle/crash');
    expect(keptOfB(a, scenario('b', { ...templated, target: { call: 'write' } }, '/p/one'))).not.toContain('b/idle/crash');
    // The folder is also the default cwd: with the same cwd written out, the folder does not count.
    const atSrv = { subject: { command: 'node', args: ['server.js'], cwd: '/srv' } };
    expect(keptOfB(scenario('a', atSrv, '/p/one'), scenario('b', { ...atSrv, target: { call: 'write' } }, '/p/two'))).not.toContain('b/idle/crash');
    expect(keptOfB(scenario('a', {}, '/p/one'), scenario('b', { target: { call: 'write' } }, '/p/two'))).toContain('b/idle/crash');
  });

  it('a cancel drill is never the same drill, even of two identical scenarios', () => {
    const cancel: ScenarioParts = { points: ['in-flight'], modes: ['cancel'] };
    const plan = planRun([scenario('a', cancel), scenario('b', cancel)]);
    expect(keys(plan.drills)).toEqual(['a/in-flight/cancel', 'b/in-flight/cancel']);
    expect(plan.notRepeated).toEqual([]);
    // Nor at a point where the target is never sent (the plan has none there: a cancel needs a call in flight).
    const [a, b] = [scenario('a'), scenario('b', { target: { call: 'write' } })];
    const key = (s: Scenario, mode: 'cancel' | 'crash') =>
      sameDrillKey({ index: 0, key: `${s.id}/idle/${mode}`, scenario: s, point: 'idle', mode, profile: 'ts-sdk' });
    expect(key(a, 'cancel')).not.toBe(key(b, 'cancel'));
    expect(key(a, 'crash')).toBe(key(b, 'crash'));
  });

  it('the child child-spawned waits for does not count at idle and pre-dispatch', () => {
    const a = scenario('a', { points: ['idle'], modes: ['crash'] });
    const b = scenario('b', { points: ['idle'], modes: ['crash'], child: { command: 'chrome', 'alive-for': 500 } });
    expect(sameDrillKey({ index: 0, key: 'a/idle/crash', scenario: a, point: 'idle', mode: 'crash', profile: 'ts-sdk' })).toBe(
      sameDrillKey({ index: 1, key: 'b/idle/crash', scenario: b, point: 'idle', mode: 'crash', profile: 'ts-sdk' }),
    );
  });

  it('the points where the target is written never merge two scenarios, even identical ones', () => {
    for (const point of ['in-flight', 'sent', 'confirmed', 'child-spawned', 'after-response'] as const) {
      const key = (id: string) => sameDrillKey({ index: 0, key: `${id}/${point}/crash`, scenario: scenario(id), point, mode: 'crash', profile: 'ts-sdk' });
      expect(key('a'), point).not.toBe(key('b'));
    }
  });
});
