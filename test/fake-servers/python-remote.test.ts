import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRemote, type DrillRemote } from '../../harness/remote/index.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { signalByIdentity } from './support/proc.js';
import { correlationMeta, idFrom, requestsOn, startWithRemote, waitForJournal } from './support/remote-subject.js';

const janitor = new Cleanup();
let remote: DrillRemote;
beforeAll(async () => {
  remote = await createRemote();
});
afterEach(() => janitor.run());
afterAll(() => remote?.close());

describe('python/well-behaved.py on the drill remote', () => {
  it('write forwards the correlation id as its key; a retry replays; a 503 is a tool error', async () => {
    const { subject, drillId } = await startWithRemote('python/well-behaved', janitor, remote);
    const { correlationId, meta } = correlationMeta();
    const first = await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta);
    expect(first.isError).toBe(false);
    const effectId = idFrom(first.text, 'effect');
    expect(idFrom((await subject.callToolFull('write', { op: 'deploy', target: 'prod' }, meta)).text, 'effect')).toBe(effectId);
    expect(remote.effects(drillId)).toEqual([expect.objectContaining({ id: effectId, idempotencyKey: correlationId })]);
    expect(requestsOn(remote, drillId, 'POST /actions').map((r) => [r.outcome, r.correlationId])).toEqual([
      ['committed', correlationId],
      ['replayed', correlationId],
    ]);

    // Without a correlation id the key is derived from the operation, as in the Node servers.
    await subject.callToolFull('write', { op: 'tag', target: 'a' });
    expect(requestsOn(remote, drillId, 'POST /actions')[2]?.idempotencyKey).toMatch(/^fake-[0-9a-f]{32}$/);

    remote.setFault(drillId, { kind: 'status', status: 503 });
    expect(await subject.callToolFull('write', { op: 'x', target: 'y' })).toEqual({ isError: true, text: 'write failed: HTTP 503' });
  });

  it('cancels its running job on stdin EOF before it exits', async () => {
    const { subject, drillId } = await startWithRemote('python/well-behaved', janitor, remote, { session: { jobDurationMs: 60_000 } });
    const jobId = idFrom((await subject.callToolFull('start-job', { op: 'build' }, correlationMeta().meta)).text, 'job');
    expect(remote.jobs(drillId).map((j) => j.status)).toEqual(['running']);
    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(remote.jobs(drillId)).toEqual([expect.objectContaining({ id: jobId, status: 'cancelled' })]);
    expect(remote.jobs(drillId)[0]!.settledT!).toBeLessThanOrEqual(subject.exitMark!);
  });

  it('SIGTERM cancels the job too, and a write read together with the EOF still lands', async () => {
    const a = await startWithRemote('python/well-behaved', janitor, remote, { session: { jobDurationMs: 60_000 } });
    idFrom((await a.subject.callToolFull('start-job', { op: 'build' })).text, 'job');
    expect(signalByIdentity(a.server, 'SIGTERM')).toBe(true);
    expect(await a.subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(remote.jobs(a.drillId).map((j) => j.status)).toEqual(['cancelled']);

    const b = await startWithRemote('python/well-behaved', janitor, remote);
    const { meta } = correlationMeta();
    b.subject.send({ id: 70, method: 'tools/call', params: { name: 'write', arguments: { op: 'late', target: 't' }, _meta: meta } });
    b.subject.closeStdin();
    expect((await b.subject.exitWithin(5000))?.code).toBe(0);
    await waitForJournal(remote, b.drillId, (events) => events.some((e) => e.kind === 'outcome'), 'the late write to be answered');
    expect(remote.effects(b.drillId).map((e) => e.op)).toEqual(['late']);
    expect(isRunning(b.server)).toBe(false);
  });
});
