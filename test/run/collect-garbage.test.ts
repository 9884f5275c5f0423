/**
 * collectGarbage (harness/run/collect-garbage.ts): a full collection on demand, in a process
 * started without --expose-gc. What nothing references is gone after it; what is referenced stays.
 */
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../harness/run/collect-garbage.js';

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
});
