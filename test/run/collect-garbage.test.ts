/**
 * collectGarbage (harness/run/collect-garbage.ts): a full collection on demand, in a process
 * started without --expose-gc, and only above the heap size given. What nothing references is gone
 * after it; what is referenced stays.
 */
import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { COLLECT_ABOVE_BYTES, collectGarbage } from '../../harness/run/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects an object nothing references and keeps one that is referenced', async () => {
    let dead: object | null = { payload: new Array(1000).fill('x') };
    const kept = { payload: new Array(1000).fill('y') };
    const deadRef = new WeakRef(dead);
    const keptRef = new WeakRef(kept);
    dead = null;
    // A WeakRef's target lives to the end of the job that made it: the collection runs in a later one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectGarbage()).toBe(true);
    expect(deadRef.deref()).toBeUndefined();
    expect(keptRef.deref()).toBe(kept);
  });

  it('does not collect while the heap in use is at or under the size given, and does above it', () => {
    const used = getHeapStatistics().used_heap_size;
    expect(collectGarbage(used + 512 * 1024 * 1024)).toBe(false);
    expect(collectGarbage(Math.floor(used / 2))).toBe(true);
    // A run's threshold: above a small run's heap (this worker's), below a 10,000-drill run's 150 MB.
    expect(COLLECT_ABOVE_BYTES).toBeGreaterThan(32 * 1024 * 1024);
    expect(COLLECT_ABOVE_BYTES).toBeLessThan(150 * 1024 * 1024);
  });
});
