import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryEvent } from '../../harness/remote/types.js';
import { cleanup, killByIdentity, spawnNode, startRemote, waitForEvent } from './helpers.js';

afterEach(cleanup);

/** A child that POSTs one action with an idempotency key, then waits for the answer. */
const ACTION_CHILD = `
fetch(process.env.URL + '/actions', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + process.env.TOKEN, 'content-type': 'application/json', 'idempotency-key': 'op-1' },
  body: JSON.stringify({ op: 'deploy', target: 'web' }),
}).then((r) => r.text()).then((t) => process.stdout.write(t));
`;

describe('remote when the sender dies at a kill point', () => {
  for (const point of ['sent', 'confirmed'] as const) {
    it(`at ${point}: journals the disconnect, commits on proceed, and records the answer as undelivered`, async () => {
      const remote = await startRemote();
      const { token } = remote.openSession('d1');
      const gate = remote.arm({ drillId: 'd1', point });
      const child = spawnNode(ACTION_CHILD, { URL: remote.url, TOKEN: token });
      const hit = await gate.reached;
      expect(hit.process?.pid).toBe(child.pid);
      expect(remote.effects('d1')).toHaveLength(point === 'sent' ? 0 : 1);

      expect(killByIdentity(hit.process!)).toBe(true);
      await child.exited;
      const gone = await waitForEvent(remote, (e) => e.kind === 'disconnect' && e.seq === hit.seq);
      expect(gone.t).toBeGreaterThan(hit.t);

      gate.release(); // proceed: the remote commits (or has committed) whatever the client does
      const delivery = await waitForEvent<DeliveryEvent>(remote, (e) => e.kind === 'delivery' && e.seq === hit.seq);
      expect(delivery).toMatchObject({ delivered: false, reason: 'client-gone' });
      expect(remote.effects('d1')).toHaveLength(1);
      expect(remote.requests()[0]).toMatchObject({ outcome: 'committed', delivered: false, disconnectedT: gone.t });
    });
  }

  it('journals no disconnect when the sender waits for its answer', async () => {
    const remote = await startRemote();
    const { token } = remote.openSession('d1');
    const gate = remote.arm({ drillId: 'd1', point: 'confirmed' });
    const child = spawnNode(ACTION_CHILD, { URL: remote.url, TOKEN: token });
    const hit = await gate.reached;
    gate.release();
    await child.exited;
    await waitForEvent(remote, (e) => e.kind === 'delivery' && e.seq === hit.seq);
    expect(remote.journal({ kind: 'disconnect' })).toHaveLength(0);
    expect(remote.requests()[0]).toMatchObject({ outcome: 'committed', status: 201, delivered: true });
  });
});
