import { afterEach, describe, expect, it } from 'vitest';
import { monoNow } from '../../harness/util/clock.js';
import { cleanup, postJson, startRemote } from './helpers.js';

afterEach(cleanup);

describe('remote faults', () => {
  it('drop-after-commit loses the response but keeps the effect; a retry with the key replays it', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const fault = remote.setFault('d1', { kind: 'drop-after-commit' });
    const key = { 'idempotency-key': 'op-1' };
    await expect(postJson(`${remote.url}/actions`, token, { op: 'pay', target: 'acct' }, key)).rejects.toThrow();
    const effects = remote.effects('d1');
    expect(effects).toHaveLength(1);
    expect(fault.remaining).toBe(0);

    const retry = await postJson(`${remote.url}/actions`, token, { op: 'pay', target: 'acct' }, key);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ id: effects[0].id });
    expect(remote.effects('d1')).toHaveLength(1);
    expect(remote.requests().map((r) => [r.outcome, r.status, r.reason, r.delivered])).toEqual([
      ['committed', 0, 'fault:drop-after-commit', false],
      ['replayed', 200, undefined, true],
    ]);
  });

  it('status answers a 5xx without committing, for `times` requests', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    remote.setFault('d1', { kind: 'status', status: 502, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' })).status);
    expect(statuses).toEqual([502, 502, 201]);
    expect(remote.effects('d1')).toHaveLength(1);
    expect(remote.requests().map((r) => r.outcome)).toEqual(['failed', 'failed', 'committed']);
  });

  it('delay holds the answer for about ms; a spent fault no longer delays', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    remote.setFault('d1', { kind: 'delay', ms: 400, match: { path: '/actions' } });
    const t0 = monoNow();
    const res = await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    const elapsed = monoNow() - t0;
    expect(res.status).toBe(201);
    expect(elapsed).toBeGreaterThanOrEqual(395);
    const rec = remote.requests()[0];
    const outcome = remote.journal({ seq: rec.seq, kind: 'outcome' })[0];
    expect(outcome.t - rec.t).toBeGreaterThanOrEqual(395);
    // The fault is spent (times defaults to 1): the next one is answered at once.
    const t1 = monoNow();
    await postJson(`${remote.url}/actions`, token, { op: 'a', target: 'b' });
    expect(monoNow() - t1).toBeLessThan(395);
  });

  it('rejects a bad fault spec with a typed error', async () => {
    const remote = await startRemote();
    expect(() => remote.setFault('d1', { kind: 'status', status: 42 })).toThrow(expect.objectContaining({ code: 'REMOTE_BAD_OPTION' }));
    // @ts-expect-error an unknown kind
    expect(() => remote.setFault('d1', { kind: 'explode' })).toThrow(expect.objectContaining({ code: 'REMOTE_BAD_OPTION' }));
  });
});
