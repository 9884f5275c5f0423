import { afterEach, describe, expect, it } from 'vitest';
import { bearer, cleanup, postJson, startRemote, track } from './helpers.js';

afterEach(cleanup);

describe('remote gates', () => {
  it('holds at sent before the handler, then at confirmed after the commit, and releases in order', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const sent = remote.arm({ drillId: 'd1', point: 'sent' });
    const confirmed = remote.arm({ drillId: 'd1', point: 'confirmed' });

    const call = track(postJson(`${remote.url}/actions`, token, { op: 'deploy', target: 'web' }, { 'idempotency-key': 'c1' }));
    const hitSent = await sent.reached;
    expect(hitSent).toMatchObject({
      point: 'sent',
      drillId: 'd1',
      method: 'POST',
      path: '/actions',
      route: 'POST /actions',
      idempotencyKey: 'c1',
      correlationId: 'c1',
    });
    expect(hitSent.process?.pid).toBe(process.pid);
    // Held before the handler: no effect yet, the record is held, the client has no answer.
    expect(remote.effects('d1')).toHaveLength(0);
    expect(remote.requests()[0].outcome).toBe('held');
    expect(sent.state).toBe('held');
    expect(call.settled).toBe(false);

    sent.release();
    const hitConfirmed = await confirmed.reached;
    // Held after the commit: the effect exists, the response has not been sent.
    const effects = remote.effects('d1');
    expect(effects).toHaveLength(1);
    expect(hitConfirmed).toMatchObject({ point: 'confirmed', effectId: effects[0].id, status: 201, seq: hitSent.seq });
    expect(call.settled).toBe(false);
    expect(remote.journal({ seq: hitSent.seq, kind: 'outcome' })).toHaveLength(0);

    confirmed.release();
    const res = await call.promise;
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ id: effects[0].id });

    const kinds = remote.journal({ seq: hitSent.seq }).map((e) => (e.kind === 'hold' || e.kind === 'release' ? `${e.kind}:${e.point}` : e.kind));
    expect(kinds).toEqual(['request', 'hold:sent', 'release:sent', 'commit', 'hold:confirmed', 'release:confirmed', 'outcome', 'delivery']);
    const rec = remote.requests()[0];
    expect(rec).toMatchObject({ outcome: 'committed', status: 201, delivered: true, effectId: effects[0].id });
    expect(rec.holds.map((h) => [h.point, h.action])).toEqual([
      ['sent', 'proceed'],
      ['confirmed', 'proceed'],
    ]);
  });

  it('fail at sent answers 503 without committing; drop at sent loses the connection without committing', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const g1 = remote.arm({ drillId: 'd1', point: 'sent' });
    const first = postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    await g1.reached;
    g1.release('fail');
    expect((await first).status).toBe(503);

    const g2 = remote.arm({ drillId: 'd1', point: 'sent' });
    const second = postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    await g2.reached;
    g2.release('drop');
    await expect(second).rejects.toThrow();

    expect(remote.effects('d1')).toHaveLength(0);
    expect(remote.requests().map((r) => [r.outcome, r.status, r.reason, r.delivered])).toEqual([
      ['failed', 503, 'gate:fail', true],
      ['failed', 0, 'gate:drop', false],
    ]);
    // The gates are spent: the next write goes straight through.
    expect((await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' })).status).toBe(201);
  });

  it('by default holds only the first write of its own drill', async () => {
    const remote = await startRemote();
    const mine = remote.openSession('d1');
    const other = remote.openSession('d2');
    const gate = remote.arm({ drillId: 'd1', point: 'sent' });
    // A read of the drill and a write of another drill pass the armed gate.
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(mine.token) })).status).toBe(200);
    expect((await postJson(`${remote.url}/actions`, other.token, { op: 'a', target: 'b' })).status).toBe(201);
    expect(gate.state).toBe('armed');
    const write = track(postJson(`${remote.url}/actions`, mine.token, { op: 'a', target: 'b' }));
    const hit = await gate.reached;
    expect(hit.drillId).toBe('d1');
    expect(write.settled).toBe(false);
    gate.release();
    expect((await write.promise).status).toBe(201);
  });

  it('matches on correlation id and path template', async () => {
    const remote = await startRemote({ jobDurationMs: 60_000 });
    const { token } = remote.openSession('d1');
    const byCorr = remote.arm({ drillId: 'd1', point: 'sent', match: { correlationId: 'corr-2' } });
    const r1 = await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' }, { 'x-correlation-id': 'corr-1' });
    expect(r1.status).toBe(201);
    const p2 = postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' }, { 'x-correlation-id': 'corr-2', 'idempotency-key': 'k2' });
    expect((await byCorr.reached).correlationId).toBe('corr-2');
    byCorr.release();
    expect((await p2).status).toBe(201);

    const job = (await (await postJson(`${remote.url}/jobs`, token, { op: 'x' })).json()) as { id: string };
    const byPath = remote.arm({ drillId: 'd1', point: 'confirmed', match: { method: 'GET', path: '/jobs/:id' } });
    const read = fetch(`${remote.url}/jobs/${job.id}`, { headers: bearer(token) });
    expect(await byPath.reached).toMatchObject({ route: 'GET /jobs/:id', status: 200 });
    byPath.release();
    expect((await read).status).toBe(200);
  });

  it('rejects release before the gate is reached, and disarms cleanly', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const gate = remote.arm({ drillId: 'd1', point: 'sent' });
    expect(() => gate.release()).toThrow(expect.objectContaining({ code: 'REMOTE_GATE_NOT_REACHED' }));
    expect(gate.disarm()).toBe(true);
    expect((await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' })).status).toBe(201);
    expect(gate.state).toBe('disarmed');
  });

  it('close() frees a held request (cancelled, no effect) and rejects gates never reached', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const held = remote.arm({ drillId: 'd1', point: 'sent' });
    const never = remote.arm({ drillId: 'd1', point: 'sent', match: { path: '/never' } });
    const call = postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    await held.reached;
    await remote.close();
    await expect(call).rejects.toThrow();
    await expect(never.reached).rejects.toMatchObject({ code: 'REMOTE_CLOSED' });
    expect(remote.effects('d1')).toHaveLength(0);
    expect(remote.requests()[0]).toMatchObject({ outcome: 'cancelled', status: 0, reason: 'remote-closed', delivered: false });
  });
});
