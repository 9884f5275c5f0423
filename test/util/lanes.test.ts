/** harness/util/lanes.ts: at most n at once, each item once, taken in order, none after stop. */
import { describe, expect, it } from 'vitest';
import { inLanes } from '../../harness/util/lanes.js';

/** A task per item that ends only when the test releases it, so which ones run at once is decided by events. */
function gated(count: number) {
  const release: Array<() => void> = [];
  const started: number[] = [];
  let running = 0;
  let most = 0;
  const each = async (_item: string, index: number) => {
    started.push(index);
    running++;
    most = Math.max(most, running);
    await new Promise<void>((resolve) => {
      release[index] = resolve;
    });
    running--;
  };
  return { release, started, each, most: () => most, items: Array.from({ length: count }, (_, i) => `item-${i}`) };
}

describe('inLanes', () => {
  it('runs at most n at once and takes the items in order as lanes free up', async () => {
    const g = gated(5);
    const done = inLanes(g.items, 2, g.each);
    await Promise.resolve();
    expect(g.started).toEqual([0, 1]);
    g.release[1]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(g.started).toEqual([0, 1, 2]);
    for (const i of [0, 2]) g.release[i]!();
    await new Promise((resolve) => setImmediate(resolve));
    for (const i of [3, 4]) g.release[i]!();
    await done;
    expect(g.started).toEqual([0, 1, 2, 3, 4]);
    expect(g.most()).toBe(2);
  });

  it('takes no item once stop says so, and finishes the ones under way', async () => {
    const g = gated(4);
    let stopped = false;
    const done = inLanes(g.items, 2, g.each, () => stopped);
    await Promise.resolve();
    stopped = true;
    g.release[0]!();
    g.release[1]!();
    await done;
    expect(g.started).toEqual([0, 1]);
  });

  it('runs nothing for no items, and each of fewer items than lanes once', async () => {
    const seen: string[] = [];
    await inLanes([], 3, async (item: string) => void seen.push(item));
    await inLanes(['a'], 3, async (item) => void seen.push(item));
    expect(seen).toEqual(['a']);
  });
});
