import { afterEach, describe, expect, it } from 'vitest';
import { bearer, cleanup, postJson, startRemote } from './helpers.js';

afterEach(cleanup);

describe('remote auth', () => {
  it('answers /whoami for a session token, and 401 for unknown, missing or malformed credentials', async () => {
    const remote = await startRemote();
    const { sessionId, token } = remote.openSession('d1');

    const ok = await fetch(`${remote.url}/whoami`, { headers: bearer(token) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ session: sessionId, drill: 'd1', credential: 'session' });

    const unknown = await fetch(`${remote.url}/whoami`, { headers: bearer('cdt_not-a-real-token') });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toContain('Bearer');
    const none = await fetch(`${remote.url}/whoami`);
    expect(none.status).toBe(401);
    const basic = await fetch(`${remote.url}/whoami`, { headers: { authorization: `Basic ${token}` } });
    expect(basic.status).toBe(401);

    const recs = remote.requests();
    expect(recs.map((r) => [r.credential, r.outcome, r.status])).toEqual([
      ['session', 'ok', 200],
      ['unknown', 'denied', 401],
      ['none', 'denied', 401],
      ['unknown', 'denied', 401],
    ]);
    expect(recs[0].sessionId).toBe(sessionId);
    expect(recs[0].drillId).toBe('d1');
  });

  it('serves /health without a credential', async () => {
    const remote = await startRemote();
    const res = await fetch(`${remote.url}/health`);
    expect(res.status).toBe(200);
    expect(remote.requests()[0]).toMatchObject({ route: 'GET /health', credential: 'none', outcome: 'ok' });
  });

  it('denies a revoked token on every route, while other sessions and the API key still work', async () => {
    const remote = await startRemote({ jobDurationMs: 60_000 });
    const a = remote.openSession('da');
    const b = remote.openSession('db');
    // Before revocation the token works: prove the 401s below come from the revocation.
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(a.token) })).status).toBe(200);
    const job = await postJson(`${remote.url}/jobs`, a.token, { op: 'sync' });
    expect(job.status).toBe(202);
    const { id } = (await job.json()) as { id: string };

    const revokedAt = remote.revoke(a.sessionId, 'test-operator');
    expect(revokedAt.t).toBeGreaterThan(0);
    expect(remote.revoke(a.sessionId).t).toBe(revokedAt.t);

    const attempts = await Promise.all([
      fetch(`${remote.url}/whoami`, { headers: bearer(a.token) }),
      postJson(`${remote.url}/actions`, a.token, { op: 'x', target: 'y' }),
      postJson(`${remote.url}/actions`, a.token, { op: 'x', target: 'y' }, { 'idempotency-key': 'k1' }),
      postJson(`${remote.url}/jobs`, a.token, { op: 'sync' }),
      fetch(`${remote.url}/jobs/${id}`, { headers: bearer(a.token) }),
      fetch(`${remote.url}/jobs/${id}/cancel`, { method: 'POST', headers: bearer(a.token) }),
      fetch(`${remote.url}/no-such-route`, { headers: bearer(a.token) }),
      fetch(`${remote.url}/whoami`, { method: 'DELETE', headers: bearer(a.token) }),
    ]);
    expect(attempts.map((r) => r.status)).toEqual(Array(8).fill(401));
    expect(remote.effects('da')).toHaveLength(1); // only the job started before revocation
    expect(remote.jobs('da')[0].status).toBe('running'); // the denied cancel did nothing

    const denied = remote.requests({ sessionId: a.sessionId }).filter((r) => r.outcome === 'denied');
    expect(denied).toHaveLength(8);
    expect(denied.every((r) => r.credential === 'session' && r.drillId === 'da')).toBe(true);
    expect(remote.journal({ kind: 'revoked' })).toMatchObject([{ sessionId: a.sessionId, drillId: 'da', operator: 'test-operator' }]);

    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(b.token) })).status).toBe(200);
    const byKey = await fetch(`${remote.url}/whoami`, { headers: bearer(remote.apiKey) });
    expect(byKey.status).toBe(200);
    expect(await byKey.json()).toMatchObject({ session: null, credential: 'api-key' });
  });

  it('rotateApiKey() denies the old key and accepts the new one', async () => {
    const remote = await startRemote();
    const old = remote.apiKey;
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(old) })).status).toBe(200);
    const next = remote.rotateApiKey();
    expect(next).not.toBe(old);
    expect(remote.apiKey).toBe(next);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(old) })).status).toBe(401);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(next) })).status).toBe(200);
    const recs = remote.requests();
    expect(recs.map((r) => [r.credential, r.outcome])).toEqual([
      ['api-key', 'ok'],
      ['api-key', 'denied'],
      ['api-key', 'ok'],
    ]);
    expect(recs[0].credentialId).toBe(recs[1].credentialId);
    expect(recs[2].credentialId).not.toBe(recs[1].credentialId);
  });

  it("a drill's own API key ties each request to that drill, with no process to look up; rotating it leaves other drills' keys alone", async () => {
    const remote = await startRemote();
    const a = remote.apiKeyFor('da');
    const b = remote.apiKeyFor('db');
    expect(remote.apiKeyFor('da')).toBe(a);
    expect(new Set([a, b, remote.apiKey]).size).toBe(3);
    // This test process is no drill's candidate: only the key can say whose request it is.
    const byA = await fetch(`${remote.url}/whoami`, { headers: bearer(a) });
    expect(await byA.json()).toEqual({ session: null, drill: 'da', credential: 'api-key' });
    const next = remote.rotateApiKey('da');
    expect(remote.apiKeyFor('da')).toBe(next);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(a) })).status).toBe(401);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(next) })).status).toBe(200);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(b) })).status).toBe(200);
    expect((await fetch(`${remote.url}/whoami`, { headers: bearer(remote.apiKey) })).status).toBe(200);
    expect(remote.requests().map((r) => [r.drillId ?? null, r.credential, r.outcome])).toEqual([
      ['da', 'api-key', 'ok'],
      ['da', 'api-key', 'denied'],
      ['da', 'api-key', 'ok'],
      ['db', 'api-key', 'ok'],
      [null, 'api-key', 'ok'],
    ]);
    expect(remote.journal({ kind: 'api-key-rotated' })).toMatchObject([{ drillId: 'da' }]);
  });

  it('rejects revoke() of an unknown session with a typed error', async () => {
    const remote = await startRemote();
    expect(() => remote.revoke('nope')).toThrow(expect.objectContaining({ code: 'REMOTE_UNKNOWN_SESSION' }));
  });
});
