/**
 * The watch of the processes inside a drill's containers (harness/containers/inside.ts) stops for
 * good: its 20 ms sampling is unref'd, so one started again after containment read all of /proc
 * every 20 ms for the rest of the harness's life, unseen (test/containers/matrix.e2e.test.ts left
 * its worker spending 28% of a core on it).
 */
import { describe, expect, it } from 'vitest';
import { ContainerProcessWatch } from '../../harness/containers/inside.js';

describe('the watch inside containers', () => {
  it('samples while it watches, and a watch after stop() starts nothing', () => {
    const watch = new ContainerProcessWatch(() => {});
    watch.watch(process.pid);
    expect(watch.watching).toBe(true);
    watch.stop();
    expect(watch.watching).toBe(false);
    watch.watch(process.pid);
    expect(watch.watching).toBe(false);
  });
});
