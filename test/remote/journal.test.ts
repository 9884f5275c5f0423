import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { foldRequests } from '../../harness/remote/index.js';
import type { JournalEvent } from '../../harness/remote/types.js';
import { monoNow } from '../../harness/util/clock.js';
import { bearer, cleanup, postJson, startRemote } from './helpers.js';

afterEach(cleanup);

describe('remote journal', () => {
  it('never holds a token, an API key, an Authorization header or a body value', async () => {
    const echo = http.post('/echo', async ({ request }) => HttpResponse.json(await request.json()));
    const remote = await startRemote({ handlers: [echo], writes: [{ method: 'POST', path: '/echo' }] });
    const a = remote.openSession('d1');
    const b = remote.openSession('d1');
    const oldKey = remote.apiKey;
    const bodyValue = 'body-value-7f3c9e';
    await postJson(`${remote.url}/actions`, a.token, { op: bodyValue, target: `${bodyValue}-t` }, { 'idempotency-key': 'k' });
    await postJson(`${remote.url}/jobs`, a.token, { op: bodyValue });
    await postJson(`${remote.url}/echo`, a.token, { secret: bodyValue });
    await fetch(`${remote.url}/whoami?token=${a.token}`, { headers: bearer(oldKey) });
    await fetch(`${remote.url}/x/${b.token}`, { headers: bearer(b.token, { 'x-correlation-id': `c-${a.token}` }) });
    remote.revoke(a.sessionId);
    await postJson(`${remote.url}/actions`, a.token, { op: bodyValue, target: 't' });
    remote.rotateApiKey();
    await fetch(`${remote.url}/whoami`, { headers: bearer(oldKey) });
    await fetch(`${remote.url}/whoami`, { headers: bearer(remote.apiKey) });

    const dump = JSON.stringify([remote.journal(), remote.requests()]);
    for (const secret of [a.token, b.token, oldKey, remote.apiKey, bodyValue, 'Bearer']) {
      expect(dump).not.toContain(secret);
    }
    expect(dump.toLowerCase()).not.toContain('authorization');
    // The redaction is real: the path and correlation id that carried tokens are journalled.
    const recs = remote.requests();
    expect(recs.find((r) => r.path.startsWith('/x/'))).toMatchObject({ path: '/x/[redacted]', correlationId: 'c-[redacted]' });
    expect(recs.find((r) => r.route === 'GET /whoami')?.path).toBe('/whoami');
    // Credentials can still be told apart.
    const ids = new Set(recs.map((r) => r.credentialId));
    expect(ids.size).toBe(4); // a, b, the old key, the new key
  });

  it('streams every event to listeners in order, and writes the outcome before the answer arrives', async () => {
    const remote = await startRemote();
    const streamed: JournalEvent[] = [];
    let outcomeT = 0;
    remote.on('journal', (e: JournalEvent) => {
      streamed.push(e);
      if (e.kind === 'outcome' && outcomeT === 0) outcomeT = e.t; // the first request's
    });
    const { token } = remote.openSession('d1');
    await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    const answeredT = monoNow();
    await fetch(`${remote.url}/whoami`, { headers: bearer(token) });
    await fetch(`${remote.url}/health`);

    const all = remote.journal();
    expect(streamed).toEqual(all);
    expect(all.map((e) => e.n)).toEqual(all.map((_, i) => i));
    expect(all.every((e, i) => i === 0 || e.t >= all[i - 1].t)).toBe(true);
    expect(outcomeT).toBeGreaterThan(0);
    expect(outcomeT).toBeLessThanOrEqual(answeredT);
    expect(foldRequests(streamed)).toEqual(remote.requests());
    expect(() => {
      (all[0] as { t: number }).t = 0;
    }).toThrow(); // events are frozen: append-only
  });

  it('filters by drill, session, kind, seq and time', async () => {
    const remote = await startRemote();
    const a = remote.openSession('da');
    const b = remote.openSession('db');
    await fetch(`${remote.url}/whoami`, { headers: bearer(a.token) });
    const mid = monoNow();
    await fetch(`${remote.url}/whoami`, { headers: bearer(b.token) });
    expect(remote.journal({ drillId: 'da', kind: 'request' })).toHaveLength(1);
    expect(remote.journal({ sessionId: b.sessionId }).map((e) => e.kind)).toEqual(['session-opened', 'request', 'outcome', 'delivery']);
    expect(remote.journal({ kind: ['session-opened'] })).toHaveLength(2);
    expect(remote.journal({ since: mid }).every((e) => e.drillId === 'db')).toBe(true);
    const seq = remote.requests({ drillId: 'db' })[0].seq;
    expect(remote.journal({ seq }).map((e) => e.kind)).toEqual(['request', 'outcome', 'delivery']);
  });
});
