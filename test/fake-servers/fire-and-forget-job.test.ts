import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { correlationMeta, idFrom, requestsOn, startWithRemote } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

describe('fire-and-forget-job', () => {
  it('exits 0 on EOF and leaves its job running: no cancel was ever sent', async () => {
    const { subject, drillId } = await startWithRemote('fire-and-forget-job', janitor, remote, {
      session: { jobDurationMs: 60_000 },
    });
    const { correlationId, meta } = correlationMeta();
    const jobId = idFrom((await subject.callToolFull('start-job', { op: 'build' }, meta)).text, 'job');
    expect(requestsOn(remote, drillId, 'POST /jobs')[0]?.idempotencyKey).toBe(correlationId);
    const helper = janitor.track(await subject.spawnHelper());
    expect(helper).not.toBeNull();
    expect(isRunning(helper!)).toBe(true);

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(subject.stderrText).toContain(`leaving 1 job(s) running: ${jobId}`);

    // The server is gone; nothing of it can cancel the job any more.
    expect(remote.jobs(drillId)).toEqual([expect.objectContaining({ id: jobId, status: 'running' })]);
    expect(requestsOn(remote, drillId, 'POST /jobs/:id/cancel')).toEqual([]);
    // Only the job is left behind: its helper it did end (no-survivors passes).
    expect(isRunning(helper!)).toBe(false);
  });
});
