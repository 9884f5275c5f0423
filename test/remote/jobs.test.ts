import { afterEach, describe, expect, it } from 'vitest';
import type { JobEvent } from '../../harness/remote/types.js';
import { bearer, cleanup, postJson, startRemote, waitForEvent } from './helpers.js';

afterEach(cleanup);

describe('remote jobs', () => {
  it('completes a job after its duration, by timer', async () => {
    const remote = await startRemote({ jobDurationMs: 300 });
    const { token } = remote.openSession('d1');
    const res = await postJson(`${remote.url}/jobs`, token, { op: 'reindex' });
    expect(res.status).toBe(202);
    const { id, status } = (await res.json()) as { id: string; status: string };
    expect(status).toBe('running');
    const running = await fetch(`${remote.url}/jobs/${id}`, { headers: bearer(token) });
    expect(await running.json()).toMatchObject({ id, status: 'running' });

    const done = await waitForEvent<JobEvent>(remote, (e) => e.kind === 'job' && e.jobId === id && e.status === 'completed');
    expect(done.seq).toBeUndefined(); // no request completed it: the timer did
    const job = remote.jobs('d1')[0];
    expect(job.status).toBe('completed');
    // Timers never fire early by more than rounding (Node docs: "at least delay ms").
    expect(job.settledT! - job.createdT).toBeGreaterThanOrEqual(299);
    const after = await fetch(`${remote.url}/jobs/${id}`, { headers: bearer(token) });
    expect(await after.json()).toMatchObject({ id, status: 'completed' });
  });

  it('cancels a running job; a completed job cannot be cancelled', async () => {
    const remote = await startRemote({ jobDurationMs: 60_000 });
    const { token } = remote.openSession('d1', {});
    const fast = remote.openSession('d1', { jobDurationMs: 50 });
    const slow = (await (await postJson(`${remote.url}/jobs`, token, { op: 'long' })).json()) as { id: string };
    const quick = (await (await postJson(`${remote.url}/jobs`, fast.token, { op: 'short' })).json()) as { id: string };

    const cancel = await fetch(`${remote.url}/jobs/${slow.id}/cancel`, { method: 'POST', headers: bearer(token) });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toEqual({ id: slow.id, status: 'cancelled' });
    const ev = await waitForEvent<JobEvent>(remote, (e) => e.kind === 'job' && e.jobId === slow.id && e.status === 'cancelled');
    expect(ev.seq).toBe(remote.requests().at(-1)!.seq);
    expect(remote.requests().at(-1)).toMatchObject({ route: 'POST /jobs/:id/cancel', write: false, outcome: 'ok' });

    await waitForEvent(remote, (e) => e.kind === 'job' && e.jobId === quick.id && e.status === 'completed');
    const late = await fetch(`${remote.url}/jobs/${quick.id}/cancel`, { method: 'POST', headers: bearer(fast.token) });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ status: 'completed' });

    expect(remote.jobs('d1').map((j) => [j.id, j.status])).toEqual([
      [slow.id, 'cancelled'],
      [quick.id, 'completed'],
    ]);
  });

  it('replays POST /jobs with the same key and hides jobs of other drills', async () => {
    const remote = await startRemote({ jobDurationMs: 60_000 });
    const a = remote.openSession('da');
    const b = remote.openSession('db');
    const first = await postJson(`${remote.url}/jobs`, a.token, { op: 'x' }, { 'idempotency-key': 'j' });
    const again = await postJson(`${remote.url}/jobs`, a.token, { op: 'x' }, { 'idempotency-key': 'j' });
    expect([first.status, again.status]).toEqual([202, 200]);
    const { id } = (await first.json()) as { id: string };
    expect(((await again.json()) as { id: string }).id).toBe(id);
    expect(remote.jobs('da')).toHaveLength(1);

    expect((await fetch(`${remote.url}/jobs/${id}`, { headers: bearer(b.token) })).status).toBe(404);
    expect((await fetch(`${remote.url}/jobs/${id}/cancel`, { method: 'POST', headers: bearer(b.token) })).status).toBe(404);
    expect(remote.jobs('da')[0].status).toBe('running');
    expect(remote.requests({ drillId: 'da' }).map((r) => r.outcome)).toEqual(['committed', 'replayed']);
    expect(remote.requests({ drillId: 'da' })[0].jobId).toBe(id);
  });

  it('stops job timers on close: no job event after close', async () => {
    const remote = await startRemote({ jobDurationMs: 200 });
    const { token } = remote.openSession('d1');
    await postJson(`${remote.url}/jobs`, token, { op: 'x' });
    await remote.close();
    const before = remote.journal().length;
    // Wait well past the duration by waiting on a timer of our own; the remote's is gone.
    await new Promise((r) => setTimeout(r, 400));
    expect(remote.journal().length).toBe(before);
    expect(remote.jobs('d1')[0].status).toBe('running');
  });
});
