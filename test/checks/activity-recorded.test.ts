/**
 * activity-recorded on synthetic evidence, both ways: the record read when each write arrived
 * and when the server exited (or at the end of the window) decides it, and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { activityRecorded } from '../../harness/checks/activity-recorded/check.js';
import { runChecks } from '../../harness/checks/all-checks.js';
import type { ActivityCounts, ActivityEntry, ActivityRead } from '../../harness/evidence/types.js';
import { diagnose } from '../../harness/results/diagnosis.js';
import { incidentRecord } from '../../harness/results/incident.js';
import type { JournalEvent } from '../../harness/remote/types.js';
import { EvidenceBuilder } from './evidence-builder.js';

const KEY = 'cd-20260101T000000-abcdef-0003:write';

function counts(entries: number, extra: Partial<ActivityCounts> = {}): ActivityCounts {
  return { lines: entries, entries, other: 0, malformed: 0, dropped: 0, bytes: entries * 100, unreadBytes: 0, problems: [], ...extra };
}

class Drill {
  readonly b: EvidenceBuilder;
  private seen = 0;
  private seqs = 0;

  constructor(mode: 'crash' | 'close' | 'hang' = 'crash', on = true) {
    this.b = new EvidenceBuilder({ point: 'sent', mode, expect: { activityRecorded: on } })
      .start(1000)
      .spawned(1010)
      .add(1011, { type: 'activity-source', kind: 'file', file: '/tmp/x/activity.jsonl', drillFile: true });
  }

  /** A write of the drill arrives (journalled), and the record is read then with what is new. */
  write(t: number, key: string | undefined, entries: Array<Omit<ActivityEntry, 'line'>>, extra: Partial<ActivityCounts> = {}): this {
    const seq = ++this.seqs;
    const request: JournalEvent = {
      kind: 'request',
      n: seq,
      t,
      seq,
      drillId: 'd',
      sessionId: 's1',
      credential: 'session',
      method: 'POST',
      path: '/actions',
      route: 'POST /actions',
      write: true,
      idempotencyKey: key,
      correlationId: key,
      process: { pid: 4242, startTime: 1 },
      attribution: 'candidate',
    };
    this.b.add(t, { type: 'remote', entry: request }, 'remote');
    return this.read(t, 'request', entries, extra, seq);
  }

  read(t: number, read: ActivityRead, entries: Array<Omit<ActivityEntry, 'line'>>, extra: Partial<ActivityCounts> = {}, request?: number): this {
    const lines = entries.map((e) => ({ ...e, line: ++this.seen }));
    this.b.add(t, { type: 'activity', read, ...(request !== undefined ? { request } : {}), entries: lines, counts: counts(this.seen, extra) });
    return this;
  }

  lost(t: number): this {
    this.b.pointReached(t).clientLost(t);
    return this;
  }

  exit(t: number): this {
    this.b.serverExit(t, { code: 0 });
    return this.read(t + 1, 'exit', []);
  }

  run() {
    return activityRecorded.run(this.b.build());
  }
}

const started = (key = KEY) => ({ key, phase: 'started' as const, operation: 'deploy' });
const result = (key = KEY) => ({ key, phase: 'result' as const, operation: 'deploy' });
const unresolved = (key = KEY) => ({ key, phase: 'unresolved' as const });

describe('activity-recorded', () => {
  it('passes: started was in the record when the write arrived, and ended before the exit', () => {
    const pass = new Drill().write(1200, KEY, [started()]).lost(1201);
    pass.b.serverExit(1300, { code: 0 });
    pass.read(1301, 'exit', [unresolved()]);
    expect(pass.run()).toMatchObject({
      verdict: 'pass',
      summary:
        "the write the remote received was in the server's record before it arrived, and every action it started was ended before it exited (0 results, 1 unresolved)",
      data: { writes: [{ seq: 1, key: KEY, recorded: 'before' }], open: [], closedAt: 'exit' },
    });
    // Without an end by the exit it fails: the second half.
    const open = new Drill().write(1200, KEY, [started()]).lost(1201).exit(1300);
    expect(open.run()).toMatchObject({ verdict: 'fail', summary: `1 action started and never ended before it exited (${KEY})`, data: { open: [KEY] } });
  });

  it('fails: the record named the write only after it had arrived (after the answer)', () => {
    const d = new Drill().write(1200, KEY, []).lost(1201);
    d.b.serverExit(1263, { code: 0 });
    d.read(1264, 'exit', [started(), result()]);
    const outcome = d.run();
    expect(outcome.verdict).toBe('fail');
    expect(outcome.summary).toBe(
      `the remote received ${KEY} (POST /actions) before the server recorded it: started was written 64 ms after the request arrived`,
    );
    const evidence = d.b.build();
    const checks = runChecks(evidence);
    const diagnosis = diagnose(evidence, checks).filter((g) => g.check === 'activity-recorded');
    expect(diagnosis.map((g) => g.cause)).toEqual([
      `the server recorded its action only after the request had reached the remote: the remote received ${KEY}; the server recorded it 64 ms later`,
    ]);
  });

  it('fails: the remote received a key the record never named, and each difference is a diagnosis of its own', () => {
    const other = 'other-key';
    const d = new Drill().write(1200, KEY, [started(other)]).lost(1201);
    d.b.serverExit(1300, { code: 0 });
    d.read(1301, 'exit', []);
    const outcome = d.run();
    expect(outcome.verdict).toBe('fail');
    expect(outcome.summary).toBe(
      `the remote received ${KEY} (POST /actions); the server never recorded it; 1 action started and never ended before it exited (${other})`,
    );
    const evidence = d.b.build();
    const checks = runChecks(evidence);
    const diagnosis = diagnose(evidence, checks).filter((g) => g.check === 'activity-recorded');
    expect(diagnosis.map((g) => g.cause)).toEqual([
      `the remote received key ${KEY}; the server never recorded it`,
      `the server started an action and recorded no end before it exited: ${other}`,
    ]);
    const incident = incidentRecord(evidence, checks, null, diagnosis);
    expect(incident.findings.filter((f) => f.check === 'activity-recorded')).toEqual([
      { check: 'activity-recorded', label: 'the remote received, the server never recorded', items: [`${KEY} (#1 POST /actions)`] },
      { check: 'activity-recorded', label: 'started, never ended', items: [other] },
    ]);
    expect(incident.activity).toMatchObject({
      source: 'CRASH_DRILL_ACTIVITY_FILE',
      lastStarted: { key: other, phase: 'started', operation: 'deploy', seenMs: 200 },
      lastEnded: null,
      remoteLast: { key: KEY, route: 'POST /actions', ms: 200 },
    });
    expect(incident.activity?.line).toBe(
      `last started ${other} (deploy) at +200 ms; last ended none; the remote last received ${KEY} (POST /actions) at +200 ms (CRASH_DRILL_ACTIVITY_FILE)`,
    );
  });

  it('judges a server that did not exit by the end of the window', () => {
    const open = new Drill().write(1200, KEY, [started()]).lost(1201).read(5000, 'window-end', []);
    expect(open.run()).toMatchObject({ verdict: 'fail', summary: `1 action started and never ended by the end of the grace period (${KEY})` });
    const closed = new Drill().write(1200, KEY, [started()]).lost(1201).read(5000, 'window-end', [unresolved()]);
    expect(closed.run()).toMatchObject({ verdict: 'pass', data: { closedAt: 'window-end' } });
    // An end written after the window (the harness's SIGTERM) does not count.
    const late = new Drill().write(1200, KEY, [started()]).lost(1201).read(5000, 'window-end', []).read(6000, 'final', [unresolved()]);
    expect(late.run().verdict).toBe('fail');
  });

  it('cannot tell without a write of the drill, a key, a read, or with the record cut', () => {
    const none = new Drill().lost(1201);
    none.b.serverExit(1300, { code: 0 });
    expect(none.run()).toMatchObject({ verdict: 'unknown', summary: 'no write of the drill reached the remote: nothing to hold the record against' });
    const keyless = new Drill().write(1200, undefined, []).lost(1201).exit(1300);
    expect(keyless.run()).toMatchObject({ verdict: 'unknown', summary: 'write #1 (POST /actions) carried no key the record could name' });
    const cut = new Drill().write(1200, KEY, [], { dropped: 4 }).lost(1201).exit(1300);
    expect(cut.run().verdict).toBe('unknown');
    const unread = new Drill().write(1200, KEY, [], { unreadBytes: 4096 }).lost(1201).exit(1300);
    expect(unread.run()).toMatchObject({
      verdict: 'unknown',
      summary: 'write #1 (POST /actions) could not be held against the record (it was not read then, or was cut)',
    });
    const notReached = new Drill();
    notReached.b.pointTimeout(6000, 'sent', 5000, 'no write');
    expect(notReached.run().verdict).toBe('unknown');
  });

  it('applies in crash and close with the option on, never in hang or with it off', () => {
    expect(runChecks(new Drill('crash').lost(1201).b.build()).map((c) => c.id)).toContain('activity-recorded');
    expect(runChecks(new Drill('close').lost(1201).b.build()).map((c) => c.id)).toContain('activity-recorded');
    expect(runChecks(new Drill('hang').lost(1201).b.build()).map((c) => c.id)).not.toContain('activity-recorded');
    expect(runChecks(new Drill('crash', false).lost(1201).b.build()).map((c) => c.id)).not.toContain('activity-recorded');
  });
});
