/**
 * The CPU slots shared by runs (harness/run/cpu-pool.ts): two schedulers on one pool never have
 * more drills starting than the pool's slots, and one whose drills all wait leaves its slots to the
 * other; over the survey's Unix socket the same holds between clients, a client's slots come back
 * when it goes, and a client whose survey went on alone keeps working with one slot.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CpuPoolServer, cpuPoolClient, LocalCpuPool, takeSlot } from '../../harness/run/cpu-pool.js';
import { PhaseScheduler } from '../../harness/run/scheduler.js';
import { tempDir } from '../support/temp-dir.js';

/** Whether the promise has settled by the time queued callbacks have run. */
async function settled<T>(promise: Promise<T>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('one pool, two schedulers', () => {
  it('admits no more starting drills than the pool holds, across both', async () => {
    const pool = new LocalCpuPool(2);
    const a = new PhaseScheduler({ inFlight: 8, cpu: 2 }, pool);
    const b = new PhaseScheduler({ inFlight: 8, cpu: 2 }, pool);
    const a1 = (await a.admit())!;
    const b1 = (await b.admit())!;
    expect(pool.taken).toBe(2);
    const a2 = a.admit();
    const b2 = b.admit();
    expect(await settled(a2)).toBe(false);
    expect(await settled(b2)).toBe(false);
    // a's drill waits: its slot goes to whichever asked first.
    a1.enter('waiting');
    expect(await settled(a2)).toBe(true);
    expect(await settled(b2)).toBe(false);
    b1.release();
    expect(await settled(b2)).toBe(true);
    expect(pool.taken).toBe(2);
  });

  it('lets one run take every slot while the other only waits', async () => {
    const pool = new LocalCpuPool(2);
    const waiting = new PhaseScheduler({ inFlight: 8, cpu: 1 }, pool);
    const busy = new PhaseScheduler({ inFlight: 8, cpu: 1 }, pool);
    const w = (await waiting.admit())!;
    w.enter('waiting');
    // Its own `cpu` is 1, but the pool has two free: the shared slots are what count.
    await busy.admit();
    await busy.admit();
    expect(busy.counts().starting).toBe(2);
    // An exit begins whatever the count (it never waits), and is counted.
    w.enter('exiting');
    expect(pool.taken).toBe(3);
    const third = busy.admit();
    expect(await settled(third)).toBe(false);
  });
});

describe("the survey's pool over a Unix socket", () => {
  it('grants a slot first come first served, and takes back the slots of a client that went', async () => {
    const server = await CpuPoolServer.listen(2, join(tempDir('crash-drill-cpu-pool-'), 'cpu.sock'));
    try {
      const one = await cpuPoolClient(server.path);
      const two = await cpuPoolClient(server.path);
      const s1 = new PhaseScheduler({ inFlight: 8, cpu: 2 }, one);
      const s2 = new PhaseScheduler({ inFlight: 8, cpu: 2 }, two);
      const a = s1.admit();
      const b = s1.admit();
      await a;
      await b;
      expect(server.peak).toBe(2);
      const wanted = server.nextWant();
      const c = s2.admit();
      // The second client's want has reached the pool, and waits there: no slot is free.
      await wanted;
      expect(server.waiting).toBe(1);
      expect(await settled(c)).toBe(false);
      // The first client goes with both its slots: they come back, and the second gets one.
      one.close();
      await c;
      const d = s2.admit();
      await d;
      expect(s2.counts().starting).toBe(2);
      expect(server.peak).toBe(2);
      two.close();
    } finally {
      await server.close();
    }
  });

  it('gives back at once a slot granted that nobody took', async () => {
    const server = await CpuPoolServer.listen(1, join(tempDir('crash-drill-cpu-pool-'), 'cpu.sock'));
    try {
      const client = await cpuPoolClient(server.path);
      expect(client.tryTake()).toBe(false);
      // The grant comes with no one waiting for it: the client gives it back, and another may have it.
      const other = await cpuPoolClient(server.path);
      await takeSlot(other);
      other.give();
      await takeSlot(other);
      client.close();
      other.close();
    } finally {
      await server.close();
    }
  });

  it('goes on with one slot of its own when the survey has gone', async () => {
    const server = await CpuPoolServer.listen(2, join(tempDir('crash-drill-cpu-pool-'), 'cpu.sock'));
    const client = await cpuPoolClient(server.path);
    const s = new PhaseScheduler({ inFlight: 8, cpu: 2 }, client);
    const first = (await s.admit())!;
    await server.close();
    await client.closed;
    const second = s.admit();
    // Alone, its one slot is the one its first drill holds.
    expect(await settled(second)).toBe(false);
    first.enter('waiting');
    await second;
    expect(s.counts()).toEqual({ starting: 1, exiting: 0, waiting: 1, containing: 0 });
    expect(await settled(s.admit())).toBe(false);
    client.close();
  });
});
