import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { requestsOn, startWithRemote } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

describe('static-key-holder', () => {
  it('after EOF reads /whoami 3 times with the API key, and the reads succeed after revocation', async () => {
    const { subject, server, drillId, sessionId, token } = await startWithRemote('static-key-holder', janitor, remote);
    // The harness's containment: the session is revoked once the client is lost.
    const { t: revokedAt } = remote.revoke(sessionId, 'test');
    const probe = await fetch(`${remote.url}/whoami`, { headers: { Authorization: `Bearer ${token}` } });
    expect(probe.status).toBe(401); // the session's own credential is dead

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1500);

    const reads = requestsOn(remote, drillId, 'GET /whoami').filter((r) => r.credential === 'api-key');
    expect(reads).toHaveLength(3);
    for (const r of reads) {
      expect(r).toMatchObject({ outcome: 'ok', status: 200, write: false, processDrillId: drillId });
      expect(r.t).toBeGreaterThan(revokedAt);
      expect(r.process?.pid).toBe(server.pid);
    }
    // 100 ms apart (a little slack for timer rounding).
    expect(reads[1]!.t - reads[0]!.t).toBeGreaterThanOrEqual(90);
    expect(reads[2]!.t - reads[1]!.t).toBeGreaterThanOrEqual(90);
    // Reads only: nothing it sent after the loss was a write.
    expect(remote.requests({ drillId }).filter((r) => r.write)).toEqual([]);
  });

  it('without CRASH_DRILL_API_KEY it has nothing to read with and just exits', async () => {
    const { subject, drillId } = await startWithRemote('static-key-holder', janitor, remote, {
      env: { CRASH_DRILL_API_KEY: '' },
    });
    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(subject.stderrText).toContain('no CRASH_DRILL_API_KEY');
    expect(requestsOn(remote, drillId, 'GET /whoami')).toEqual([]);
  });

  it('well-behaved with the same key in its environment never uses it', async () => {
    const { subject, drillId, sessionId } = await startWithRemote('well-behaved', janitor, remote);
    remote.revoke(sessionId, 'test');
    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(remote.requests({ drillId })).toEqual([]);
  });
});
