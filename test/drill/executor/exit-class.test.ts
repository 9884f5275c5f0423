/**
 * How the server ended is recorded: a clean exit, a crash with a stack trace (the unhandled
 * EPIPE an SDK server throws when it writes after its client died), a signal and who sent it.
 */
import { describe, expect, it } from 'vitest';
import { planRun } from '../../../harness/plan/plan.js';
import { runPlan } from '../../../harness/run/run-plan.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type ScenarioParts } from '../../support/scenarios.js';

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 1500 }, 'no-survivors': { grace: 500 } }, timeouts: { 'close-wait': 1500 } };

describe('exit classification', () => {
  it('an unhandled EPIPE after the client died is a crash, with the stack trace line', async () => {
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'epipe',
        subject: fakeSubject('crashes-on-epipe'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
        modes: ['crash'],
        ...FAST,
      }),
    );
    const { results } = await runPlan(planRun([scenario]), { concurrency: 1 });
    const drill = results.drills[0];
    expect(drill.exit).toMatchObject({ class: 'crash', code: 1, signal: null, signalFrom: null, endedAfter: null });
    expect(drill.exit!.crash).toMatch(/EPIPE|Unhandled 'error' event/);
    expect(drill.exit!.stderrTail).toContain('EPIPE');
    // It did leave once its client was gone: exit-on-eof records how, and passes.
    expect(drill.checks.find((c) => c.id === 'exit-on-eof')).toMatchObject({ verdict: 'pass' });
    expect(drill.checks.find((c) => c.id === 'exit-on-eof')!.summary).toMatch(/exited \d+ ms after losing its client \(code 1\)/);
  });

  it('the same server under close mode is not crashed (the client still reads) but ended by the client', async () => {
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'epipe-close',
        subject: fakeSubject('crashes-on-epipe'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
        modes: ['close'],
        expect: { 'exit-on-eof': { deadline: 500 }, 'no-survivors': { grace: 1000 } },
        timeouts: { 'close-wait': 500 },
      }),
    );
    const { results } = await runPlan(planRun([scenario]), { concurrency: 1 });
    const drill = results.drills[0];
    expect(drill.verdict).toBe('fail');
    expect(drill.exit).toMatchObject({ class: 'clean', code: 0, endedAfter: "SIGTERM from the client's shutdown" });
    expect(drill.checks.find((c) => c.id === 'exit-on-eof')!.summary).toContain("ended by SIGTERM from the client's shutdown");
  });

  it('a python server exits cleanly on EOF', async () => {
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'py',
        subject: fakeSubject('python-well-behaved'),
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: ['crash'],
        ...FAST,
      }),
    );
    const { results } = await runPlan(planRun([scenario]), { concurrency: 1 });
    expect(results.drills[0].verdict).toBe('pass');
    expect(results.drills[0].exit).toMatchObject({ class: 'clean', code: 0 });
    expect(results.drills[0].handshake).toMatchObject({ serverName: 'py-well-behaved' });
  });
});
