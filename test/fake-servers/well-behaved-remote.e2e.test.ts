import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { startTracked } from './support/drive.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { signalByIdentity } from './support/proc.js';
import { correlationMeta, idFrom, requestsOn, startWithRemote, waitForJournal } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

describe('well-behaved: write and start-job on the drill remote', () => {
  it('write forwards the correlation id as Idempotency-Key and X-Correlation-Id; a retry replays', async () => {
    const { subject, server, drillId } = await startWithRemote('well-behaved', janitor, remote);
    const { correlationId, meta } = correlationMeta();
    const first = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta);
    expect(first.isError).toBe(false);
    const effectId = idFrom(first.text, 'effect');

    const effects = remote.effects(drillId);
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ id: effectId, kind: 'action', op: 'deploy', target: 'prod', idempotencyKey: correlationId });
    const [request] = requestsOn(remote, drillId, 'POST /actions');
    expect(request).toMatchObject({
      credential: 'session',
      write: true,
      idempotencyKey: correlationId,
      correlationId,
      outcome: 'committed',
      status: 201,
    });
    expect(request!.process?.pid).toBe(server.pid); // the remote tied it to the server itself

    // The recovery retry of the same call: the key makes it a replay, not a second effect.
    const again = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta);
    expect(idFrom(again.text, 'effect')).toBe(effectId);
    expect(remote.effects(drillId)).toHaveLength(1);
    expect(requestsOn(remote, drillId, 'POST /actions').map((r) => r.outcome)).toEqual(['committed', 'replayed']);
  });

  it('without a correlation id the key comes from op+target: the same write dedups, another does not', async () => {
    const { subject, drillId } = await startWithRemote('well-behaved', janitor, remote);
    const a1 = idFrom((await subject.callToolFull('write', { op: 'tag', target: 'a' })).text, 'effect');
    const a2 = idFrom((await subject.callToolFull('write', { op: 'tag', target: 'a' })).text, 'effect');
    const b = idFrom((await subject.callToolFull('write', { op: 'tag', target: 'b' })).text, 'effect');
    expect(a2).toBe(a1);
    expect(b).not.toBe(a1);
    const requests = requestsOn(remote, drillId, 'POST /actions');
    expect(requests).toHaveLength(3);
    for (const r of requests) expect(r.idempotencyKey).toMatch(/^fake-[0-9a-f]{32}$/);
    expect(requests[0]!.idempotencyKey).toBe(requests[1]!.idempotencyKey);
    expect(requests[2]!.idempotencyKey).not.toBe(requests[0]!.idempotencyKey);
    expect(remote.effects(drillId)).toHaveLength(2);
  });

  it('a failed write is a tool error with the HTTP status, and is not retried', async () => {
    const { subject, drillId } = await startWithRemote('well-behaved', janitor, remote);
    remote.setFault(drillId, { kind: 'status', status: 503 });
    const answer = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, correlationMeta().meta);
    expect(answer).toEqual({ isError: true, text: 'write failed: HTTP 503' });
    expect(requestsOn(remote, drillId, 'POST /actions')).toHaveLength(1);
    expect(remote.effects(drillId)).toEqual([]);
  });

  it('cancels its running job on stdin EOF, before it exits, and writes nothing after the EOF', async () => {
    const { subject, drillId } = await startWithRemote('well-behaved', janitor, remote, { session: { jobDurationMs: 60_000 } });
    const { correlationId, meta } = correlationMeta();
    const answer = await subject.callToolFull('start-job', { op: 'build' }, meta);
    const jobId = idFrom(answer.text, 'job');
    expect(remote.jobs(drillId)).toEqual([expect.objectContaining({ id: jobId, op: 'build', status: 'running' })]);
    expect(requestsOn(remote, drillId, 'POST /jobs')[0]).toMatchObject({ idempotencyKey: correlationId, correlationId, status: 202 });

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);

    const [job] = remote.jobs(drillId);
    expect(job!.status).toBe('cancelled');
    expect(job!.settledT!).toBeGreaterThanOrEqual(closedAt);
    expect(job!.settledT!).toBeLessThanOrEqual(subject.exitMark!); // cancelled before it exited
    const cancels = requestsOn(remote, drillId, 'POST /jobs/:id/cancel');
    expect(cancels).toEqual([expect.objectContaining({ path: `/jobs/${jobId}/cancel`, write: false, status: 200 })]);
    expect(remote.requests({ drillId }).filter((r) => r.write && r.t >= closedAt)).toEqual([]);
  });

  it('SIGTERM cancels the running job the same way', async () => {
    const { subject, server, drillId } = await startWithRemote('well-behaved', janitor, remote, { session: { jobDurationMs: 60_000 } });
    idFrom((await subject.callToolFull('start-job', { op: 'build' })).text, 'job');
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(remote.jobs(drillId).map((j) => j.status)).toEqual(['cancelled']);
  });

  it('acts on a write that arrived right before EOF: the effect exists once it has exited', async () => {
    const { subject, drillId } = await startWithRemote('well-behaved', janitor, remote);
    const { correlationId, meta } = correlationMeta();
    // Written in the same tick as the EOF, so the server reads the call and the EOF together.
    subject.send({ id: 70, method: 'tools/call', params: { name: 'write', arguments: { op: 'late', target: 't' }, _meta: meta } });
    subject.closeStdin();
    expect((await subject.exitWithin(5000))?.code).toBe(0);
    await waitForJournal(remote, drillId, (events) => events.some((e) => e.kind === 'outcome'), 'the late write to be answered');
    expect(remote.effects(drillId)).toEqual([expect.objectContaining({ op: 'late', idempotencyKey: correlationId })]);
  });

  it('without CRASH_DRILL_REMOTE_URL a write is a tool error naming what is missing', async () => {
    const { subject, server } = await startTracked('well-behaved', janitor, {
      CRASH_DRILL_REMOTE_URL: '',
      CRASH_DRILL_TOKEN: '',
    });
    await subject.handshake();
    const answer = await subject.callToolFull('write', { op: 'x', target: 'y' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('CRASH_DRILL_REMOTE_URL');
    expect(isRunning(server)).toBe(true); // a tool error, not a crash
  });
});
