/**
 * A stop drill left out by its close drill's evidence (harness/plan/by-evidence.ts), on real drills,
 * both ways, each server's helper started (spawn-helper). well-behaved exits on EOF and leaves
 * nothing: its close drill's client quits with nothing to reach, so its stop drill is not run.
 * leaks-child leaves its helper, which holds nothing of the server's stdio and is not the client's
 * child: alive, but out of the quit's reach, so its stop drill is not run either. Run on their own,
 * both stop drills give every check the close drill's verdict. leaks-stdin-holder's helper keeps
 * the server's stdin: the quit can reach it, so its stop drill runs. crashes-on-epipe ignores EOF
 * and dies only when its stdout's reader goes: under cursor, whose stop sequence only closes stdin,
 * the quit kills it in close and nothing does in stop; it was up at the quit, so the stop drill runs
 * and its verdict differs from the close drill's.
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

const scenarios = () => [
  scenario('wb', 'well-behaved', 'ts-sdk'),
  scenario('leaks', 'leaks-child', 'ts-sdk'),
  scenario('holder', 'leaks-stdin-holder', 'ts-sdk'),
  scenario('epipe', 'crashes-on-epipe', 'cursor'),
];
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
      'holder/after-response/close',
      'holder/after-response/stop',
      'leaks/after-response/close',
      'wb/after-response/close',
    ]);
    const leftOut = (id: string) => ({
      key: `${id}/after-response/stop`,
      sameAs: `${id}/after-response/close`,
      scenario: id,
      clientProfile: 'ts-sdk',
      clientVersions: expect.any(String),
      byEvidence: { mode: 'stop', reason: SAME_BY_QUIT },
    });
    expect(merged.results.notRepeated).toEqual([leftOut('wb'), leftOut('leaks')]);
    // The plan is the plan: the six drills that ran and the two left out.
    expect(merged.results.plan?.drills).toBe(8);
    expect(merged.results.summary).toEqual({ pass: 1, fail: 5, unknown: 0, error: 0 });
  });

  it("reads it from the close drill's quit: the server's exit recorded and nothing alive it can reach", () => {
    expect(quitOf(merged, 'wb/after-response/close')).toMatchObject({ alive: 0, reachable: 0, serverExited: true });
    // leaks-child's helper holds none of the server's stdio; leaks-stdin-holder's holds its stdin.
    expect(quitOf(merged, 'leaks/after-response/close')).toMatchObject({ alive: 1, reachable: 0, serverExited: true });
    expect(quitOf(merged, 'holder/after-response/close')).toMatchObject({ alive: 1, reachable: 1, serverExited: true });
    // crashes-on-epipe is up until the quit.
    expect(quitOf(merged, 'epipe/after-response/close@cursor')).toMatchObject({ alive: 2, serverExited: false });
    // What the quit compares against: the server's ends of its stdio, read after the handshake.
    const stdio = merged.evidence.find((e) => e.meta.key === 'holder/after-response/close')?.events.find((e) => e.type === 'subject-stdio');
    expect(stdio).toMatchObject({ links: [expect.stringMatching(/^(pipe|socket):\[\d+\]$/), expect.any(String), expect.any(String)] });
  });

  it("shows each left-out drill as a copy of the close drill's, in its own mode", () => {
    const copies = notRepeatedCopies(merged.results.drills, merged.results.notRepeated);
    expect(copies.map((c) => [c.key, c.mode, c.point, c.sameAs])).toEqual([
      ['wb/after-response/stop', 'stop', 'after-response', 'wb/after-response/close'],
      ['leaks/after-response/stop', 'stop', 'after-response', 'leaks/after-response/close'],
    ]);
    for (const copy of copies) expect(verdicts(copy)).toEqual(verdicts(byKey(merged).get(copy.sameAs)!));
  });

  it('gives the verdicts the stop drill gives when it runs', () => {
    const ran = byKey(whole);
    expect(whole.results.notRepeated).toBeUndefined();
    expect(verdicts(ran.get('wb/after-response/stop')!)).toEqual(verdicts(byKey(merged).get('wb/after-response/close')!));
    expect(verdicts(ran.get('wb/after-response/stop')!)).toEqual({ verdict: 'pass', 'stdout-clean': 'pass', 'exit-on-eof': 'pass', 'no-survivors': 'pass' });
    expect(verdicts(ran.get('leaks/after-response/stop')!)).toEqual(verdicts(byKey(merged).get('leaks/after-response/close')!));
    expect(verdicts(ran.get('leaks/after-response/stop')!)).toEqual({ verdict: 'fail', 'stdout-clean': 'pass', 'exit-on-eof': 'pass', 'no-survivors': 'fail' });
    // The same helper left, by its command line.
    const survivors = (key: string, output: RunOutput) =>
      byKey(output)
        .get(key)!
        .survivors.map((p) => p.cmdline.slice(1).join(' '));
    expect(survivors('leaks/after-response/stop', whole)).toEqual(survivors('leaks/after-response/close', merged));
  });

  it('runs the stop drill where the quit could reach something, and there it differs from close', () => {
    const ran = byKey(merged);
    expect(verdicts(ran.get('holder/after-response/stop')!)).toEqual({
      verdict: 'fail',
      'stdout-clean': 'pass',
      'exit-on-eof': 'pass',
      'no-survivors': 'fail',
    });
    // In close the client's quit breaks the server's stdout and it dies; in stop nothing ends it.
    expect(verdicts(ran.get('epipe/after-response/close@cursor')!)).not.toEqual(verdicts(ran.get('epipe/after-response/stop@cursor')!));
    expect(ran.get('epipe/after-response/stop@cursor')!.checks.find((c) => c.id === 'no-survivors')?.verdict).toBe('fail');
  });
});
