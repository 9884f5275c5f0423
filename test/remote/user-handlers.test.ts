import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { remoteContext } from '../../harness/remote/index.js';
import { bearer, cleanup, postJson, startRemote, track } from './helpers.js';

afterEach(cleanup);

/** A tiny user "deploy API": one write that uses the remote's effect store, one read, one plain write. */
const deployApi = [
  http.post('/deploys', async ({ request }) => {
    const body = (await request.json()) as { service?: unknown };
    if (typeof body.service !== 'string') return HttpResponse.json({ error: 'service required' }, { status: 400 });
    const result = remoteContext(request).commit({ kind: 'deploy', op: 'deploy', target: body.service });
    if (result.status === 'conflict') return HttpResponse.json({ error: 'key reused' }, { status: 422 });
    return HttpResponse.json({ deployId: result.effect.id }, { status: result.status === 'created' ? 201 : 200 });
  }),
  http.get('/deploys/:id', ({ params }) => HttpResponse.json({ id: params.id, state: 'live' })),
  // A write that keeps its own state (no remote store): still journalled as committed.
  http.post('/rollbacks', () => HttpResponse.json({ ok: true }, { status: 201 })),
];
const writes = [
  { method: 'POST', path: '/deploys' },
  { method: 'POST', path: '/rollbacks' },
];

describe('remote with user msw handlers', () => {
  it('puts auth and the journal in front of user routes', async () => {
    const remote = await startRemote({ handlers: deployApi, writes });
    const { sessionId, token } = remote.openSession('d1');

    expect((await fetch(`${remote.url}/deploys`, { method: 'POST', body: '{"service":"web"}' })).status).toBe(401);
    const created = await postJson(`${remote.url}/deploys`, token, { service: 'web' }, { 'idempotency-key': 'dep-1' });
    expect(created.status).toBe(201);
    const { deployId } = (await created.json()) as { deployId: string };
    const replay = await postJson(`${remote.url}/deploys`, token, { service: 'web' }, { 'idempotency-key': 'dep-1' });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ deployId });
    const read = await fetch(`${remote.url}/deploys/${deployId}`, { headers: bearer(token) });
    expect(await read.json()).toEqual({ id: deployId, state: 'live' });
    expect((await postJson(`${remote.url}/rollbacks`, token, {})).status).toBe(201);
    expect((await postJson(`${remote.url}/deploys`, token, { nope: 1 })).status).toBe(400);
    // The built-in API is still there behind the user's handlers.
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(token) })).status).toBe(200);

    expect(remote.effects('d1')).toMatchObject([{ id: deployId, kind: 'deploy', target: 'web', replays: 1, sessionId }]);
    expect(remote.requests().map((r) => [r.route, r.write, r.outcome, r.status])).toEqual([
      ['POST /deploys', true, 'denied', 401],
      ['POST /deploys', true, 'committed', 201],
      ['POST /deploys', true, 'replayed', 200],
      ['GET /deploys/:id', false, 'ok', 200],
      ['POST /rollbacks', true, 'committed', 201],
      ['POST /deploys', true, 'failed', 400],
      ['GET /whoami', false, 'ok', 200],
    ]);
  });

  it('holds a user write at sent and confirmed', async () => {
    const remote = await startRemote({ handlers: deployApi, writes });
    const { token } = remote.openSession('d1');
    const sent = remote.arm({ drillId: 'd1', point: 'sent' });
    const confirmed = remote.arm({ drillId: 'd1', point: 'confirmed' });
    // A read first: the default gate waits for the first write.
    expect((await fetch(`${remote.url}/deploys/x`, { headers: bearer(token) })).status).toBe(200);
    const call = track(postJson(`${remote.url}/deploys`, token, { service: 'api' }));
    expect((await sent.reached).route).toBe('POST /deploys');
    expect(remote.effects('d1')).toHaveLength(0);
    sent.release();
    const hit = await confirmed.reached;
    expect(remote.effects('d1')).toHaveLength(1);
    expect(hit.effectId).toBe(remote.effects('d1')[0].id);
    expect(call.settled).toBe(false);
    confirmed.release('fail');
    // The effect stays: the client is told 503 although the deploy happened.
    expect((await call.promise).status).toBe(503);
    expect(remote.requests().at(-1)).toMatchObject({ outcome: 'committed', status: 503, reason: 'gate:fail' });
  });

  it('answers 404 for a route nobody handles, and 500 when a handler throws', async () => {
    const boom = http.get('/boom', () => {
      throw new Error('secret-in-message');
    });
    const remote = await startRemote({ handlers: [boom] });
    const { token } = remote.openSession('d1');
    expect((await fetch(`${remote.url}/nothing-here`, { headers: bearer(token) })).status).toBe(404);
    expect((await fetch(`${remote.url}/boom`, { headers: bearer(token) })).status).toBe(500);
    expect(remote.requests().map((r) => [r.route, r.outcome, r.reason])).toEqual([
      ['GET /nothing-here', 'failed', undefined],
      ['GET /boom', 'failed', 'handler-error'],
    ]);
    expect(JSON.stringify(remote.journal())).not.toContain('secret-in-message');
  });
});
