/**
 * The confusion matrix of the server's own activity record: the servers that keep it well and
 * badly × `sent` and `confirmed` (where the remote holds the write while the client dies) ×
 * crash and close, every check's verdict asserted exactly. records-activity passes, whether the
 * answer comes back (result) or comes too late for its shutdown deadline (unresolved), from its
 * file or from stderr lines in a format of its own; records-after-answer, never-ends-actions and
 * well-behaved (which keeps no record) fail activity-recorded and nothing else. It runs with the
 * in-process client and the phase-aware schedule; the stderr rows again with a client process
 * (the server's stderr pipe is the harness's either way: harness/drill/client/text-pipe.ts).
 */
import { describe, expect, it } from 'vitest';
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import type { DrillResult } from '../../harness/results/types.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type FakeServer, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { REMOTE_DRILL_PASS, verdictTable as table } from '../support/truth-table.js';

const POINTS: KillPoint[] = ['sent', 'confirmed'];
const MODES: KillMode[] = ['crash', 'close'];
/** The exit deadline and close's wait, as in the remote matrix: a server's shutdown gives its requests 1 s (fake-servers/lib/remote-on-loss.ts). */
const DEADLINE = 2500;
/** The server's own format on stderr (fake-servers/lib/activity-log.ts, FAKE_ACTIVITY_TO=stderr). */
const STDERR_FORMAT = {
  stderr: '^audit: (?<json>\\{.*\\})$',
  fields: { t: 'ts', key: 'request_id', phase: 'event', operation: 'op' },
  phases: { started: 'begin', result: 'end', unresolved: 'abandoned' },
};

interface Case {
  id: string;
  server: FakeServer;
  remote?: ScenarioParts['remote'];
  env?: Record<string, string>;
  activity?: typeof STDERR_FORMAT;
  /** Which half of activity-recorded it fails, if any. */
  fails?: boolean;
}

const CASES: Case[] = [
  { id: 'records-activity', server: 'records-activity' as FakeServer },
  // The answer comes 4 s after the gate: past the server's 1 s deadline, so it records the action unresolved at shutdown.
  { id: 'records-activity-late-answer', server: 'records-activity' as FakeServer, remote: { fault: { kind: 'delay', ms: 4000, times: 1 } } },
  { id: 'records-activity-stderr', server: 'records-activity' as FakeServer, env: { FAKE_ACTIVITY_TO: 'stderr' }, activity: STDERR_FORMAT },
  { id: 'records-after-answer', server: 'records-after-answer' as FakeServer, fails: true },
  {
    id: 'records-after-answer-stderr',
    server: 'records-after-answer' as FakeServer,
    env: { FAKE_ACTIVITY_TO: 'stderr' },
    activity: STDERR_FORMAT,
    fails: true,
  },
  { id: 'never-ends-actions', server: 'never-ends-actions' as FakeServer, fails: true },
  { id: 'records-nothing', server: 'well-behaved', fails: true },
];

function scenarios(cases = CASES) {
  const dir = tempDir();
  return cases.map((c) =>
    scenarioFrom(
      scenarioYaml({
        id: c.id,
        subject: { ...fakeSubject(c.server, c.env), ...(c.activity ? { activity: c.activity } : {}) },
        target: { call: 'write', args: { op: 'deploy', target: 'web' } },
        points: POINTS,
        modes: MODES,
        remote: { 'revoke-after': 2000, ...c.remote },
        timeouts: { 'close-wait': DEADLINE, point: 10000, handshake: 20000 },
        expect: { 'exit-on-eof': { deadline: DEADLINE }, 'no-survivors': { grace: 1000 } },
        expectation: ['records-every-action'],
      }),
      dir,
      `${c.id}.yaml`,
    ),
  );
}

function expectedTable(cases = CASES): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const c of cases)
    for (const point of POINTS)
      for (const mode of MODES)
        out[`${c.id}/${point}/${mode}`] = { ...REMOTE_DRILL_PASS, verdict: c.fails ? 'fail' : 'pass', 'activity-recorded': c.fails ? 'fail' : 'pass' };
  return out;
}

describe('the activity record matrix', () => {
  let drills: DrillResult[] = [];
  let expectation: Awaited<ReturnType<typeof runPlan>>['results']['expectation'];

  it('every server × sent, confirmed × crash, close gives exactly the expected verdicts', async () => {
    const { results } = await runPlan(planRun(scenarios()), { client: 'inprocess', containTermWaitMs: 500 });
    drills = results.drills;
    expectation = results.expectation;
    const unexplained = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}\n${d.exit?.stderrTail ?? ''}`);
    expect(unexplained).toEqual([]);
    expect(table(drills)).toEqual(expectedTable());
  }, 600_000);

  it("with a client process: the record on stderr is read the same way, the server's stderr pipe drained at each read", async () => {
    const cases = CASES.filter((c) => c.activity);
    const { results } = await runPlan(planRun(scenarios(cases)), { client: 'process', containTermWaitMs: 500 });
    expect(results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
    expect(table(results.drills)).toEqual(expectedTable(cases));
  }, 600_000);

  it('records-every-action is met only by the server that records before it sends and ends what it started', () => {
    const status = Object.fromEntries((expectation?.servers ?? []).map((s) => [s.server, s.statements.map((st) => `${st.statement} ${st.status}`)]));
    expect(status).toEqual({
      'records-activity': ['records-every-action met'],
      'records-after-answer': ['records-every-action not met'],
      'never-ends-actions': ['records-every-action not met'],
      'well-behaved': ['records-every-action not met'],
    });
  });

  it('the evidence and the diagnosis name each difference between the record and the remote', () => {
    const find = (key: string) => drills.find((d) => d.key === key)!;
    const check = (key: string) => find(key).checks.find((c) => c.id === 'activity-recorded')!;
    const key = (d: DrillResult) => `${d.id}:write`;
    for (const mode of MODES) {
      for (const point of POINTS) {
        const good = check(`records-activity/${point}/${mode}`);
        expect(good.summary).toMatch(
          /^the write the remote received was in the server's record before it arrived, and every action it started was ended before it exited \(1 result, 0 unresolved\)$/,
        );
        expect(check(`records-activity-late-answer/${point}/${mode}`).summary).toMatch(/ended before it exited \(0 results, 1 unresolved\)$/);
        expect(check(`records-activity-stderr/${point}/${mode}`).summary).toMatch(/ended before it exited \(1 result, 0 unresolved\)$/);
        const after = find(`records-after-answer/${point}/${mode}`);
        expect(check(after.key).summary).toMatch(
          new RegExp(
            `^the remote received ${key(after)} \\(POST /actions\\) before the server recorded it: started was written \\d+ ms after the request arrived$`,
          ),
        );
        expect(after.incident.diagnosis?.filter((g) => g.check === 'activity-recorded').map((g) => g.cause)).toEqual([
          expect.stringMatching(
            new RegExp(
              `^the server recorded its action only after the request had reached the remote: the remote received ${key(after)}; the server recorded it \\d+ ms later$`,
            ),
          ),
        ]);
        const afterStderr = find(`records-after-answer-stderr/${point}/${mode}`);
        expect(check(afterStderr.key).data).toMatchObject({ writes: [{ recorded: 'after' }], open: [] });
        const open = find(`never-ends-actions/${point}/${mode}`);
        expect(check(open.key).summary).toBe(`1 action started and never ended before it exited (${key(open)})`);
        const none = find(`records-nothing/${point}/${mode}`);
        expect(check(none.key).summary).toBe(`the remote received ${key(none)} (POST /actions); the server never recorded it`);
        expect(none.incident.findings.filter((f) => f.check === 'activity-recorded')).toEqual([
          {
            check: 'activity-recorded',
            label: 'the remote received, the server never recorded',
            items: [expect.stringMatching(new RegExp(`^${key(none)} \\(#\\d+ POST /actions\\)$`))],
          },
        ]);
      }
    }
    // The incident record: the server's own last actions beside what the remote saw.
    const good = find('records-activity/sent/crash');
    expect(good.incident.activity).toMatchObject({
      source: 'CRASH_DRILL_ACTIVITY_FILE',
      lastStarted: { key: key(good), phase: 'started', operation: 'deploy' },
      lastEnded: { key: key(good), phase: 'result', operation: 'deploy' },
      remoteLast: { key: key(good), route: 'POST /actions' },
    });
    expect(find('records-activity-stderr/sent/crash').incident.activity?.source).toBe(`stderr lines matching /${STDERR_FORMAT.stderr}/`);
    expect(find('records-nothing/sent/crash').incident.activity).toMatchObject({ lastStarted: null, lastEnded: null });
  });
});
