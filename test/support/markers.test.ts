/**
 * The suite's leftover check (test/last/no-leftovers.test.ts) counts the suite's own drill
 * processes only: a developer's drill beside the suite carries a drill marker without the
 * suite's name and is not counted; a leak of the suite's carries both and is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { newRunId, drillIdFor } from '../../harness/observe/index.js';
import { envWith, start } from '../observe/helpers.js';
import { Cleanup } from './cleanup.js';
import { markedProcesses } from './markers.js';
import { suiteName } from './suite-tmp.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('markedProcesses by suite', () => {
  it("counts a marked process carrying the suite's name, and not one without it or with another suite's", async () => {
    const runId = newRunId();
    const ours = drillIdFor(runId, 1);
    const beside = drillIdFor(runId, 2);
    const other = drillIdFor(runId, 3);
    for (const id of [ours, beside, other]) cleanup.trackDrill(id);
    const env = (drillId: string, suite?: string): NodeJS.ProcessEnv => {
      const e = envWith({ CRASH_DRILL_RUN: drillId, ...(suite ? { CRASH_DRILL_SUITE: suite } : {}) });
      if (!suite) delete e.CRASH_DRILL_SUITE;
      return e;
    };
    start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: env(ours, suiteName()) });
    start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: env(beside) });
    start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: env(other, 'suite-someone-else') });
    expect(
      markedProcesses(runId)
        .map((p) => p.marker)
        .sort(),
    ).toEqual([ours, beside, other].sort());
    expect(markedProcesses(runId, { suite: suiteName() }).map((p) => p.marker)).toEqual([ours]);
  });
});
