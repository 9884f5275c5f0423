/**
 * A stop drill left out by its close drill's evidence (harness/plan/by-evidence.ts), on real drills,
 * both ways, each server's helper started (spawn-helper). well-behaved exits on EOF and leaves nothing: its close drill's client quits with
 * nothing to reach, so its stop drill is not run, and run on its own it gives every check the close
 * drill's verdict. leaks-child leaves its helper behind: the quit finds it alive, so the stop drill
 * runs. crashes-on-epipe ignores EOF and dies only when its stdout's reader goes: under cursor,
 * whose stop sequence only closes stdin, the quit kills it in close and nothing does in stop; the
 * quit found it alive, so the stop drill runs and its verdict differs from the close drill's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runDrills } from '../../harness/index.js';
import { SAME_BY_QUIT } from '../../harness/plan/by-evidence.js';
import { notRepeatedCopies } from '../../harness/results/constants.js';
import type { RunOutput } from '../../harness/run/run-plan.js';
import { fakeSubject, type FakeServer, scenarioFrom, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 800 } };
const root = tempDir('crash-drill-by-evidence-');

function scenario(id: string, server: FakeServer, profile: string) {
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: fakeSubject(server),
      target: { call: 'spawn-helper' },
      points: ['after-response'],
      modes: ['close', 'stop'],
      'client-profiles': [profile],
      ...FAST,
    }),
    root,
    `${id}.yaml`,
  );
}

const scenarios = () => [scenario('wb', 'well-behaved', 'ts-sdk'), scenario('leaks', 'leaks-child', 'ts-sdk'), scenario('epipe', 'crashes-on-epipe', 'cursor')];
const verdicts = (d: { verdict: string; checks: { id: string; verdict: string }[] }) => ({
  verdict: d.verdict,
  ...Object.fromEntries(d.checks.map((c) => [c.id, c.verdict])),
});
const byKey = (output: RunOutput) => new Map(output.results.drills.map((d) => [d.key, d]));
const quitOf = (output: RunOutput, key: string) => {
  const ev = output.evidence.find((e) => e.meta.key === key);
  return ev?.events.find((e) => e.type === 'client-quit');
};

let merged: RunOutput;
let whole: RunOutput;

beforeAll(async () => {
  merged = await runDrills({ scenarios: scenarios(), notRepeatedByEvidence: true });
  whole = await runDrills({ scenarios: scenarios() });
}, 120_000);

describe('a stop drill whose close drill quit with nothing left to reach', () => {
  it('is left out, with the close drill named and the reason, and no other is', () => {
    expect(merged.results.drills.map((d) => d.key).sort()).toEqual([
      'epipe/after-response/close@cursor',
      'epipe/after-response/stop@cursor',
      'leaks/after-response/close',
      'leaks/after-response/stop',
      'wb/after-response/close',
    ]);
    expect(merged.results.notRepeated).toEqual([
      {
        key: 'wb/after-response/stop',
        sameAs: 'wb/after-response/close',
        scenario: 'wb',
        clientProfile: 'ts-sdk',
        clientVersions: expect.any(String),
        byEvidence: { mode: 'stop', reason: SAME_BY_QUIT },
      },
    ]);
    // The plan is the plan: the five drills that ran and the one left out.
    expect(merged.results.plan?.drills).toBe(6);
    expect(merged.results.summary).toEqual({ pass: 1, fail: 4, unknown: 0, error: 0 });
  });

  it("reads it from the close drill's quit: nothing alive and the server's exit recorded", () => {
    expect(quitOf(merged, 'wb/after-response/close')).toMatchObject({ alive: 0, serverExited: true });
    // The helper leaks-child leaves, and the server crashes-on-epipe keeps up until the quit.
    expect(quitOf(merged, 'leaks/after-response/close')).toMatchObject({ alive: 1, serverExited: true });
    expect(quitOf(merged, 'epipe/after-response/close@cursor')).toMatchObject({ alive: 2, serverExited: false });
  });

  it("shows the left-out drill as a copy of the close drill's, in its own mode", () => {
    const [copy] = notRepeatedCopies(merged.results.drills, merged.results.notRepeated);
    expect(copy).toMatchObject({ key: 'wb/after-response/stop', mode: 'stop', point: 'after-response', sameAs: 'wb/after-response/close' });
    expect(verdicts(copy)).toEqual(verdicts(byKey(merged).get('wb/after-response/close')!));
  });

  it('gives the verdicts the stop drill gives when it runs', () => {
    const ran = byKey(whole);
    expect(whole.results.notRepeated).toBeUndefined();
    expect(verdicts(ran.get('wb/after-response/stop')!)).toEqual(verdicts(byKey(merged).get('wb/after-response/close')!));
    expect(verdicts(ran.get('wb/after-response/stop')!)).toEqual({ verdict: 'pass', 'stdout-clean': 'pass', 'exit-on-eof': 'pass', 'no-survivors': 'pass' });
  });

  it('runs the stop drill where the quit could reach something, and there it differs from close', () => {
    const ran = byKey(merged);
    expect(verdicts(ran.get('leaks/after-response/stop')!)).toEqual({ verdict: 'fail', 'stdout-clean': 'pass', 'exit-on-eof': 'pass', 'no-survivors': 'fail' });
    // In close the client's quit breaks the server's stdout and it dies; in stop nothing ends it.
    expect(verdicts(ran.get('epipe/after-response/close@cursor')!)).not.toEqual(verdicts(ran.get('epipe/after-response/stop@cursor')!));
    expect(ran.get('epipe/after-response/stop@cursor')!.checks.find((c) => c.id === 'no-survivors')?.verdict).toBe('fail');
  });
});
