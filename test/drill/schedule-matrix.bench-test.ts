/**
 * Stable verdicts: the engine matrix run one drill at a time and with the phase-aware schedule
 * (harness/run/scheduler.ts) gives the same verdict for every drill and every check. The matrix
 * twice takes minutes, so this is no part of the suite (its name does not end in .test.ts): the
 * benchmark runs it (bench/schedule-verdicts.ts, `npm run bench:schedule`, with
 * test/bench.vitest.config.ts); test/run/scheduler.e2e.test.ts covers the rules on a small set in the
 * suite.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { expectedTable, matrixYaml, table } from '../support/engine-matrix.js';
import { FAKE_SERVERS, scenarioFrom } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const OUT = process.env.CRASH_DRILL_SCHEDULE_BENCH;

function scenarios() {
  const dir = tempDir();
  return FAKE_SERVERS.map((server) => scenarioFrom(matrixYaml(server), dir, `${server}.yaml`));
}

describe('the engine matrix at concurrency 1 and with the phase-aware schedule', () => {
  it('gives identical verdicts, each matching the truth table', async () => {
    const t0 = performance.now();
    const one = await runPlan(planRun(scenarios()), { concurrency: 1, containTermWaitMs: 500 });
    const t1 = performance.now();
    const phased = await runPlan(planRun(scenarios()), { containTermWaitMs: 500 });
    const t2 = performance.now();
    const a = table(one.results.drills);
    const b = table(phased.results.drills);
    const differ = Object.keys(a).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
    if (OUT)
      writeFileSync(
        OUT,
        JSON.stringify({
          drills: one.results.drills.length,
          oneMs: t1 - t0,
          phasedMs: t2 - t1,
          differ,
          offTable: Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(expectedTable()[k])),
        }),
      );
    expect(differ).toEqual([]);
    expect(b).toEqual(expectedTable());
  }, 1_800_000);
});
