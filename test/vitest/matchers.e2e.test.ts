/**
 * The README's example, as written: a team's own vitest test that drills its server and asserts
 * with the matchers. Proven both ways: the matchers pass on well-behaved and fail, with the
 * evidence in the message, on a server that leaks its child.
 */
import { describe, expect, it } from 'vitest';
import { runDrills } from 'mcp-crash-drill';
import { crashDrillMatchers, type CrashDrillMatchers } from 'mcp-crash-drill/vitest';
import { join } from 'node:path';
import { CHECKS } from '../../harness/checks/all-checks.js';
import { packageRoot } from '../../harness/util/paths.js';
import { type FakeServer, fakeSubject, type ScenarioParts, scenarioFrom, scenarioYaml } from '../support/scenarios.js';

expect.extend(crashDrillMatchers);
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the augmentation must repeat vitest's own `Assertion<T = any>`
  interface Assertion<T = any> extends CrashDrillMatchers<T> {}
}

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } } };

/** The one drill of `server` (scenario `id`): its spawn-helper call answered, then the client crashes. */
async function drillAfterResponse(id: string, server: FakeServer) {
  const scenario = scenarioFrom(
    scenarioYaml({ id, subject: fakeSubject(server), target: { call: 'spawn-helper' }, points: ['after-response'], modes: ['crash'], ...FAST }),
  );
  const { results } = await runDrills({ scenarios: [scenario] });
  const [drill] = results.drills;
  return drill;
}

describe('vitest matchers', () => {
  it('my server cleans up after a client crash', async () => {
    // README: the example test
    const drill = await drillAfterResponse('mine', 'well-behaved');
    expect(drill).toExitOnEof();
    expect(drill).toLeaveNoSurvivors();
    expect(drill).toKeepStdoutClean();
  });

  it('fails with the survivor in the message when the server leaks a child', async () => {
    const drill = await drillAfterResponse('leaky', 'leaks-child');
    expect(drill).toExitOnEof();
    expect(() => expect(drill).toLeaveNoSurvivors()).toThrow(
      /leaky after-response\/crash: expected the server to leave no process behind; no-survivors is fail: 1 process survived[\s\S]*survivor pid \d+ \(ppid \d+, found by [a-z+-]+\): .*helper\.js/,
    );
    expect(drill).not.toLeaveNoSurvivors();
  });

  it('has one matcher per registered check, the documented names among them', () => {
    expect(Object.keys(crashDrillMatchers)).toEqual(CHECKS.map((check) => check.matcher.name));
    expect(Object.keys(crashDrillMatchers)).toEqual(
      expect.arrayContaining([
        'toExitOnEof',
        'toLeaveNoSurvivors',
        'toKeepStdoutClean',
        'toBeIdempotent',
        'toDenyAfterRevocation',
        'toStayQuietAfterLoss',
        'toSettleItsJobs',
        'toRecordEveryAction',
        'toStaySilentAfterCancel',
        'toStopAfterCancel',
        'toStayAliveAfterCancel',
      ]),
    );
  });

  /** A cancel drill of an SDK 2 fake server: the call is cancelled in flight, and only silent-after-cancel is asked for. */
  function cancelDrill(server: 'dual-era' | 'talks-after-cancel') {
    return scenarioFrom(
      scenarioYaml({
        id: `cancel-${server}`,
        subject: { command: 'node', args: [join(packageRoot(), `dist/fake-servers/sdk2/${server}.js`)], name: server },
        target: { call: 'work', args: { ms: 3000 } },
        points: ['in-flight'],
        modes: ['cancel'],
        timeouts: { point: 10000, handshake: 20000 },
        expect: { 'silent-after-cancel': { 'outlasts-cancel': true } },
      }),
    );
  }

  it('a server that goes silent on a cancel passes toStaySilentAfterCancel', async () => {
    const { results } = await runDrills({ scenarios: [cancelDrill('dual-era')] });
    const [drill] = results.drills;
    expect(drill).toStaySilentAfterCancel();
    expect(() => expect(drill).not.toStaySilentAfterCancel()).toThrow(
      /cancel-dual-era in-flight\/cancel: expected the server not to stay silent about a request once it was cancelled, but silent-after-cancel passed/,
    );
  });

  it('fails toStaySilentAfterCancel with the late messages in the message when the server talks after the cancel', async () => {
    const { results } = await runDrills({ scenarios: [cancelDrill('talks-after-cancel')] });
    const [drill] = results.drills;
    expect(() => expect(drill).toStaySilentAfterCancel()).toThrow(
      /cancel-talks-after-cancel in-flight\/cancel: expected the server to stay silent about a request once it was cancelled; silent-after-cancel is fail: \d+ messages? for the cancelled request[\s\S]*messages after the cancel: #\d+ \+\d+ ms /,
    );
    expect(drill).not.toStaySilentAfterCancel();
  });
});
