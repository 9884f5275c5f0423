/**
 * The README's example, as written: a team's own vitest test that drills its server and asserts
 * with the matchers. Proven both ways: the matchers pass on well-behaved and fail, with the
 * evidence in the message, on a server that leaks its child.
 */
import { describe, expect, it } from 'vitest';
import { runDrills } from 'mcp-crash-drill';
import { crashDrillMatchers, type CrashDrillMatchers } from 'mcp-crash-drill/vitest';
import { scenarioFrom, subjectYaml } from './support/scenarios.js';

expect.extend(crashDrillMatchers);
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the augmentation must repeat vitest's own `Assertion<T = any>`
  interface Assertion<T = any> extends CrashDrillMatchers<T> {}
}

const FAST = 'expect: { exit-on-eof: { deadline: 800 }, no-survivors: { grace: 400 } }';

describe('vitest matchers', () => {
  it('my server cleans up after a client crash', async () => {
    // README: the example test
    const scenario = scenarioFrom(
      ['id: mine', subjectYaml('well-behaved'), 'target: { call: spawn-helper }', 'points: [after-response]', 'modes: [crash]', FAST].join('\n'),
    );
    const { results } = await runDrills({ scenarios: [scenario] });
    const [drill] = results.drills;
    expect(drill).toExitOnEof();
    expect(drill).toLeaveNoSurvivors();
    expect(drill).toKeepStdoutClean();
  });

  it('fails with the survivor in the message when the server leaks a child', async () => {
    const scenario = scenarioFrom(
      ['id: leaky', subjectYaml('leaks-child'), 'target: { call: spawn-helper }', 'points: [after-response]', 'modes: [crash]', FAST].join('\n'),
    );
    const { results } = await runDrills({ scenarios: [scenario] });
    const [drill] = results.drills;
    expect(drill).toExitOnEof();
    expect(() => expect(drill).toLeaveNoSurvivors()).toThrow(
      /leaky after-response\/crash: expected the server to leave no process behind; no-survivors is fail: 1 process survived[\s\S]*survivor pid \d+ \(ppid \d+, found by [a-z+-]+\): .*helper\.js/,
    );
    expect(drill).not.toLeaveNoSurvivors();
  });
});
