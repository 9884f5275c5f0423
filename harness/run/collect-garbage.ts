/**
 * A full garbage collection before the reports start: V8 collects the old generation only past a
 * limit, so a long run's heap is mostly dead drills. Only where the heap in use is large: a full
 * collection costs about 100 ms of CPU even on a one-drill run's 20 MB, which every small run paid.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap in use past which a run collects before its reports (a 10,000-drill run had 150 MB in use, 40 MB of it alive). */
export const COLLECT_ABOVE_BYTES = 64 * 1024 * 1024;

let gc: (() => void) | null | undefined;

/** Collects when the heap in use is above `aboveBytes`; true when it did. */
export function collectGarbage(aboveBytes = 0): boolean {
  if (getHeapStatistics().used_heap_size <= aboveBytes) return false;
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
  return gc !== null;
}
