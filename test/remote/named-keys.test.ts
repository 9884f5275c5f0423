/**
 * Natural idempotency keys: a handler names the key a write is idempotent by (a resource name),
 * `remoteContext(request).commit(input, { key })`. The second commit under that name is a replay
 * whatever its headers, another operation under it a conflict, a header key of the same text
 * another key; the journal says the write was keyed by name, never the name.
 */
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteContext } from '../../harness/remote/index.js';
import { cleanup, postJson, startRemote } from './helpers.js';

afterEach(cleanup);

const handlers = [
  http.post('/things', async ({ request }) => {
    const { name, op = 'create' } = (await request.json()) as { name: string; op?: string };
    const result = remoteContext(request).commit({ op, target: name }, { key: `things/${name}` });
    if (result.status === 'conflict') return HttpResponse.json({ error: 'conflict' }, { status: 422 });
    return HttpResponse.json({ id: result.effect.id }, { status: result.status === 'created' ? 201 : 409 });
  }),
];

describe('natural keys', () => {
  it('makes one effect per name, replays the same name (409 here, as the handler chose), and journals "keyed by name"', async () => {
    const remote = await startRemote({ handlers, writes: [{ method: 'POST', path: '/things' }] });
    const { token } = remote.openSession('d1');
    const statuses = [];
    for (const name of ['a', 'a', 'b']) statuses.push((await postJson(`${remote.url}/things`, token, { name })).status);
    expect(statuses).toEqual([201, 409, 201]);
    expect(remote.effects('d1').map((e) => [e.target, e.namedKey, e.idempotencyKey, e.replays])).toEqual([
      ['a', 'things/a', undefined, 1],
      ['b', 'things/b', undefined, 0],
    ]);
    expect(remote.requests({ drillId: 'd1' }).map((r) => [r.outcome, r.status, r.keyedBy])).toEqual([
      ['committed', 201, 'name'],
      ['replayed', 409, 'name'],
      ['committed', 201, 'name'],
    ]);
    // The name is request content: the journal has that the key was a name, not the name.
    expect(JSON.stringify(remote.journal())).not.toContain('things/a');
  });

  it('is a replay whatever the Idempotency-Key, a conflict for another operation, and per drill', async () => {
    const remote = await startRemote({ handlers, writes: [{ method: 'POST', path: '/things' }] });
    const d1 = remote.openSession('d1').token;
    const d2 = remote.openSession('d2').token;
    expect((await postJson(`${remote.url}/things`, d1, { name: 'a' }, { 'idempotency-key': 'k1' })).status).toBe(201);
    expect((await postJson(`${remote.url}/things`, d1, { name: 'a' }, { 'idempotency-key': 'k2' })).status).toBe(409);
    expect((await postJson(`${remote.url}/things`, d1, { name: 'a', op: 'delete' })).status).toBe(422);
    expect((await postJson(`${remote.url}/things`, d2, { name: 'a' })).status).toBe(201);
    // A header key of the same text as a name is another key: the built-in /actions makes a new effect.
    expect((await postJson(`${remote.url}/actions`, d1, { op: 'create', target: 'a' }, { 'idempotency-key': 'things/a' })).status).toBe(201);
    expect(remote.effects('d1')).toHaveLength(2);
    expect(remote.effects('d2')).toHaveLength(1);
  });
});
