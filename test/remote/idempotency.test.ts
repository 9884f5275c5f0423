import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, postJson, startRemote } from './helpers.js';

afterEach(cleanup);

describe('POST /actions idempotency', () => {
  it('gives one effect for concurrent requests with the same key; the others are replays', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => postJson(`${remote.url}/actions`, token, { op: 'deploy', target: 'web' }, { 'idempotency-key': 'key-1' })),
    );
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as Array<{ id: string }>;
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);

    const effects = remote.effects('d1');
    expect(effects).toHaveLength(1);
    expect(effects[0]).toMatchObject({ id: bodies[0].id, op: 'deploy', target: 'web', idempotencyKey: 'key-1', replays: 11 });

    const recs = remote.requests({ drillId: 'd1' });
    expect(recs.filter((r) => r.outcome === 'committed')).toHaveLength(1);
    expect(recs.filter((r) => r.outcome === 'replayed')).toHaveLength(11);
    expect(recs.every((r) => r.effectId === bodies[0].id && r.idempotencyKey === 'key-1' && r.write)).toBe(true);
    expect(recs.every((r) => r.correlationId === 'key-1')).toBe(true);
  });

  it('creates a new effect for every keyless write', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const responses = await Promise.all(Array.from({ length: 5 }, () => postJson(`${remote.url}/actions`, token, { op: 'deploy', target: 'web' })));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(((await Promise.all(responses.map((r) => r.json()))) as Array<{ id: string }>).map((b) => b.id));
    expect(ids.size).toBe(5);
    expect(remote.effects('d1')).toHaveLength(5);
    expect(remote.requests().every((r) => r.outcome === 'committed' && r.idempotencyKey === undefined)).toBe(true);
  });

  it('scopes keys per drill, and refuses a key reused for another operation', async () => {
    const remote = await startRemote();
    const a = remote.openSession('da');
    const b = remote.openSession('db');
    const key = { 'idempotency-key': 'shared' };
    const ra = await postJson(`${remote.url}/actions`, a.token, { op: 'o', target: 't' }, key);
    const rb = await postJson(`${remote.url}/actions`, b.token, { op: 'o', target: 't' }, key);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(remote.effects('da')).toHaveLength(1);
    expect(remote.effects('db')).toHaveLength(1);

    const reuse = await postJson(`${remote.url}/actions`, a.token, { op: 'o', target: 'other' }, key);
    expect(reuse.status).toBe(422);
    expect(remote.effects('da')).toHaveLength(1);
    expect(remote.requests({ drillId: 'da' }).at(-1)).toMatchObject({ outcome: 'failed', status: 422 });
  });

  it('answers 400 to a bad body without creating an effect', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const bad = await Promise.all([
      postJson(`${remote.url}/actions`, token, { op: 'only-op' }),
      postJson(`${remote.url}/actions`, token, ['not', 'an', 'object']),
      fetch(`${remote.url}/actions`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: '{not json' }),
    ]);
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(remote.effects('d1')).toHaveLength(0);
    expect(remote.requests().map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed']);
  });
});
