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

describe('retries-without-key', () => {
  it('after a dropped answer retries once without the key: two effects, the second keyless', async () => {
    const { subject, drillId } = await startWithRemote('retries-without-key', janitor, remote);
    remote.setFault(drillId, { kind: 'drop-after-commit', times: 1 });
    const { correlationId, meta } = correlationMeta();
    const answer = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta);
    expect(answer.isError).toBe(false);

    const effects = remote.effects(drillId);
    expect(effects).toHaveLength(2);
    expect(effects[0]).toMatchObject({ op: 'deploy', target: 'prod', idempotencyKey: correlationId });
    expect(effects[1]).toMatchObject({ op: 'deploy', target: 'prod' });
    expect(effects[1]!.idempotencyKey).toBeUndefined();
    expect(idFrom(answer.text, 'effect')).toBe(effects[1]!.id); // the caller only saw the retry's

    const [first, retry] = requestsOn(remote, drillId, 'POST /actions');
    expect(first).toMatchObject({ idempotencyKey: correlationId, outcome: 'committed', delivered: false, reason: 'fault:drop-after-commit' });
    expect(retry).toMatchObject({ correlationId, outcome: 'committed', delivered: true });
    expect(retry!.idempotencyKey).toBeUndefined();
  });

  it('retries after a 5xx too, but not after a success', async () => {
    const { subject, drillId } = await startWithRemote('retries-without-key', janitor, remote);
    const { meta } = correlationMeta();
    await subject.callToolFull('write', { op: 'ok', target: 't' }, meta);
    expect(requestsOn(remote, drillId, 'POST /actions')).toHaveLength(1); // no fault: no retry

    remote.setFault(drillId, { kind: 'status', status: 502 });
    const answer = await subject.callToolFull('write', { op: 'flaky', target: 't' }, correlationMeta().meta);
    expect(answer.isError).toBe(false);
    const requests = requestsOn(remote, drillId, 'POST /actions');
    expect(requests.map((r) => [r.status, r.idempotencyKey === undefined])).toEqual([
      [201, false],
      [502, false],
      [201, true],
    ]);
  });

  it('well-behaved under the same fault leaves one effect and reports the failure', async () => {
    const { subject, drillId } = await startWithRemote('well-behaved', janitor, remote);
    remote.setFault(drillId, { kind: 'drop-after-commit', times: 1 });
    const answer = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, correlationMeta().meta);
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^write failed: /);
    expect(remote.effects(drillId)).toHaveLength(1);
    expect(requestsOn(remote, drillId, 'POST /actions')).toHaveLength(1);
  });
});
