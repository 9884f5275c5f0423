import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { correlationMeta, idFrom, requestsOn, startWithRemote } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

describe('keyless-writer', () => {
  it('sends no Idempotency-Key, so a retry of the same call makes a second effect', async () => {
    const { subject, drillId } = await startWithRemote('keyless-writer', janitor, remote);
    const { correlationId, meta } = correlationMeta();
    const first = idFrom((await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta)).text, 'effect');
    const retry = idFrom((await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta)).text, 'effect');
    expect(retry).not.toBe(first);

    const requests = requestsOn(remote, drillId, 'POST /actions');
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      expect(r.idempotencyKey).toBeUndefined();
      expect(r.correlationId).toBe(correlationId); // still traceable through X-Correlation-Id
      expect(r.outcome).toBe('committed');
    }
    const effects = remote.effects(drillId);
    expect(effects.map((e) => e.id)).toEqual([first, retry]);
    for (const e of effects) expect(e.idempotencyKey).toBeUndefined();
  });

  it('is otherwise well-behaved: exits 0 on EOF and cancels its job', async () => {
    const { subject, drillId } = await startWithRemote('keyless-writer', janitor, remote, { session: { jobDurationMs: 60_000 } });
    idFrom((await subject.callToolFull('start-job', { op: 'build' })).text, 'job');
    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(remote.jobs(drillId).map((j) => j.status)).toEqual(['cancelled']);
  });
});
