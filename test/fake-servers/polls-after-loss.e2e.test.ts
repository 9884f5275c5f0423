import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { until } from '../support/until.js';
import { idFrom, requestsOn, startWithRemote } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

describe('polls-after-loss', () => {
  it('keeps writing heartbeats after EOF, and keeps going when revocation denies them', async () => {
    const { subject, server, drillId, sessionId } = await startWithRemote('polls-after-loss', janitor, remote, {
      env: { FAKE_POLL_MS: '1500' }, // long enough to revoke in the middle on a busy machine
      session: { jobDurationMs: 60_000 },
    });
    idFrom((await subject.callToolFull('start-job', { op: 'build' })).text, 'job');
    const closedAt = subject.closeStdin();
    await until('a heartbeat to be committed', () => remote.effects(drillId).some((e) => e.op === 'heartbeat'));
    expect(isRunning(server)).toBe(true); // still writing, long after a well-behaved server is gone
    const { t: revokedAt } = remote.revoke(sessionId, 'test');

    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeGreaterThanOrEqual(1500);

    const heartbeats = requestsOn(remote, drillId, 'POST /actions');
    for (const h of heartbeats) {
      expect(h.t).toBeGreaterThan(closedAt); // every one is a new write after the loss
      expect(h.credential).toBe('session');
    }
    const before = heartbeats.filter((h) => h.t < revokedAt);
    const after = heartbeats.filter((h) => h.t > revokedAt);
    expect(before.length).toBeGreaterThanOrEqual(1);
    expect(before.every((h) => h.outcome === 'committed')).toBe(true);
    expect(after.length).toBeGreaterThanOrEqual(2); // a 401 does not stop it
    expect(after.every((h) => h.outcome === 'denied' && h.status === 401)).toBe(true);
    // A fresh key each time: every heartbeat is a new operation, not a retry.
    expect(new Set(heartbeats.map((h) => h.idempotencyKey)).size).toBe(heartbeats.length);
    expect(remote.effects(drillId).filter((e) => e.op === 'heartbeat')).toHaveLength(before.length);
    // Its job it still cancelled, first thing after the loss (before the heartbeats).
    expect(remote.jobs(drillId).map((j) => j.status)).toEqual(['cancelled']);
  });

  it('with the default FAKE_POLL_MS (500) it still exits 0 well within 1.5 s of EOF', async () => {
    const { subject, drillId } = await startWithRemote('polls-after-loss', janitor, remote);
    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeGreaterThanOrEqual(500);
    expect(exit!.at - closedAt).toBeLessThan(1500);
    const heartbeats = requestsOn(remote, drillId, 'POST /actions');
    // Counted, not timed (fake-servers/lib/after-loss.ts): 500 ms at one every 100 ms, whatever the load.
    expect(heartbeats.length).toBe(5);
    expect(heartbeats.every((h) => h.outcome === 'committed')).toBe(true); // nobody revoked it here
  });
});
