/**
 * The confusion matrix of the drill remote: the servers that talk to the remote × the kill
 * points around a remote write (`sent` and `confirmed` among them) × every mode, with every
 * check's verdict asserted exactly. well-behaved passes everything everywhere, with and without
 * a lost answer; each mutant fails exactly the check it exists for, where it can show. It runs
 * with the in-process client (its recovery retries too) and the phase-aware schedule; the
 * engine matrix (matrix.test.ts) covers the client process.
 */
import { describe, expect, it } from 'vitest';
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import type { DrillResult } from '../../harness/results/types.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type FakeServer, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { LOSS_CHECKS_PASS, REMOTE_CHECKS_PASS, verdictTable as table } from '../support/truth-table.js';

const POINTS: KillPoint[] = ['idle', 'pre-dispatch', 'in-flight', 'sent', 'confirmed', 'after-response'];
const MODES: KillMode[] = ['crash', 'close', 'hang'];
type Target = NonNullable<ScenarioParts['target']>;
const WRITE: Target = { call: 'write', args: { op: 'deploy', target: 'web' } };
/**
 * The exit deadline and the close mode's wait. A remote mutant's exit after the loss is bounded
 * by its own steps (fake-servers/lib/after-loss.ts): polls-after-loss takes up to 1 s to settle
 * the write in flight, 500 ms of heartbeats and 200 ms for their answers, 1.7 s in all. At
 * 1500 ms the fresh-clone suite once saw it fail exit-on-eof (in-flight/close) with the
 * container group beside it; 2500 ms leaves 800 ms past that bound.
 */
const DEADLINE = 2500;
const JOB: Target = { call: 'start-job', args: { op: 'build' } };

interface Case {
  id: string;
  server: FakeServer;
  target: Target;
  remote: ScenarioParts['remote'];
  env?: Record<string, string>;
}

/**
 * Revocation comes 2 s after the loss, so a server's cleanup (cancelling its jobs, within its 1 s
 * budget, fake-servers/lib/remote-on-loss.ts) happens while
 * it still has authority and an in-flight write lands before it; static-key-holder is revoked
 * at once, so that its reads with the long-lived key come after.
 */
const CASES: Case[] = [
  { id: 'well-behaved-write', server: 'well-behaved', target: WRITE, remote: { 'revoke-after': 2000 } },
  { id: 'well-behaved-job', server: 'well-behaved', target: JOB, remote: { 'revoke-after': 2000, 'job-duration': 6000 } },
  { id: 'well-behaved-dropped', server: 'well-behaved', target: WRITE, remote: { 'revoke-after': 2000, fault: { kind: 'drop-after-commit', times: 1 } } },
  { id: 'keyless-writer', server: 'keyless-writer' as FakeServer, target: WRITE, remote: { 'revoke-after': 2000 } },
  {
    id: 'retries-without-key',
    server: 'retries-without-key' as FakeServer,
    target: WRITE,
    remote: { 'revoke-after': 2000, fault: { kind: 'drop-after-commit', times: 1 } },
  },
  { id: 'polls-after-loss', server: 'polls-after-loss' as FakeServer, target: WRITE, remote: { 'revoke-after': 2000 } },
  { id: 'fire-and-forget-job', server: 'fire-and-forget-job' as FakeServer, target: JOB, remote: { 'revoke-after': 2000, 'job-duration': 6000 } },
  {
    id: 'static-key-holder',
    server: 'static-key-holder' as FakeServer,
    target: WRITE,
    remote: { 'revoke-after': 0 },
    env: { CRASH_DRILL_API_KEY: '{{remote.apiKey}}' },
  },
];

type Row = Record<string, string>;

/** The first generation wrote (or started a job) before or while its client died. */
function wroteFirst(point: KillPoint): boolean {
  return point !== 'idle' && point !== 'pre-dispatch';
}

function expected(id: string, point: KillPoint, mode: KillMode): Row {
  const hang = mode === 'hang';
  const row: Row = hang
    ? { 'stdout-clean': 'pass', 'idempotent-effects': 'pass', 'denied-after-revocation': 'pass' }
    : { ...LOSS_CHECKS_PASS, ...REMOTE_CHECKS_PASS };
  // Without a recovery retry (hang), only a write of the first generation can show it.
  if ((id === 'keyless-writer' || id === 'retries-without-key') && (!hang || wroteFirst(point))) row['idempotent-effects'] = 'fail';
  if (id === 'polls-after-loss' && !hang) row['quiet-after-loss'] = 'fail';
  if (id === 'fire-and-forget-job' && !hang && wroteFirst(point)) row['jobs-settled'] = 'fail';
  if (id === 'static-key-holder' && !hang) row['denied-after-revocation'] = 'fail';
  return row;
}

function scenarios() {
  const dir = tempDir();
  return CASES.map((c) =>
    scenarioFrom(
      scenarioYaml({
        id: c.id,
        subject: fakeSubject(c.server, c.env),
        target: c.target,
        points: POINTS,
        modes: MODES,
        remote: c.remote,
        timeouts: { 'close-wait': DEADLINE, point: 10000, handshake: 20000 },
        expect: { 'exit-on-eof': { deadline: DEADLINE }, 'no-survivors': { grace: 1000 } },
      }),
      dir,
      `${c.id}.yaml`,
    ),
  );
}

function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const c of CASES)
    for (const point of POINTS)
      for (const mode of MODES) {
        const row = expected(c.id, point, mode);
        out[`${c.id}/${point}/${mode}`] = { verdict: Object.values(row).includes('fail') ? 'fail' : 'pass', ...row };
      }
  return out;
}

describe('the remote confusion matrix', () => {
  let drills: DrillResult[] = [];

  it('every remote server × point × mode gives exactly the expected verdicts', async () => {
    const { results } = await runPlan(planRun(scenarios()), { client: 'inprocess', containTermWaitMs: 500 });
    drills = results.drills;
    const unexplained = drills
      .filter((d) => d.verdict === 'error' || d.verdict === 'unknown')
      .map((d) => `${d.scenario}/${d.point}/${d.mode}: ${d.reason}\n${d.exit?.stderrTail ?? ''}`);
    expect(unexplained).toEqual([]);
    expect(table(drills)).toEqual(expectedTable());
  }, 600_000);

  it('the evidence names what each mutant did', () => {
    const find = (key: string) => drills.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const summary = (key: string, check: string) => find(key).checks.find((c) => c.id === check)!.summary;

    expect(summary('well-behaved-write/sent/crash', 'idempotent-effects')).toMatch(/^1 effect for 2 keyed writes after the recovery retry, none duplicated$/);
    expect(summary('retries-without-key/confirmed/crash', 'idempotent-effects')).toMatch(
      /took effect more than once: \S+ and \S+ \(deploy\); 1 of \d+ writes carried no Idempotency-Key/,
    );
    expect(summary('keyless-writer/after-response/hang', 'idempotent-effects')).toMatch(/^1 of 1 writes carried no Idempotency-Key/);
    expect(summary('polls-after-loss/idle/crash', 'quiet-after-loss')).toMatch(/new writes? after the client was lost, the first \d+ ms after: POST \/actions/);
    expect(summary('fire-and-forget-job/after-response/crash', 'jobs-settled')).toMatch(
      /^1 remote job still running at the end of the grace period: \S+; cancel it$/,
    );
    expect(summary('well-behaved-job/after-response/crash', 'jobs-settled')).toBe('all 1 remote jobs settled (1 cancelled, 0 completed)');
    const leak = find('static-key-holder/idle/crash').checks.find((c) => c.id === 'denied-after-revocation')!;
    expect(leak.summary).toMatch(
      /succeeded after the session was revoked, first: GET \/whoami \(the long-lived API key, pid \d+\) -> 200; rotate the long-lived API key/,
    );
    expect(leak.data.followUp).toContain('rotate the long-lived API key');
    // The three moments are kept apart.
    expect(Object.keys(leak.data.timeline as object)).toEqual(['clientLostAt', 'lastActionStartedAt', 'revokedAt']);
  });
});
