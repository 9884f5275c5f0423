/** What a run reports at its end; expectations judged from the whole plan's scenarios, so every shard names the same statements. */
import { requirementsList } from '../results/requirements.js';
import { declaredExpectations, judgeExpectations } from '../expectation/judge.js';
import { notRepeatedEntries } from '../plan/not-repeated.js';
import { planFingerprint, type ShardSpec } from '../plan/shard.js';
import type { PlannedDrill } from '../plan/types.js';
import type { StaleReport } from '../registry/index.js';
import { findFlaky } from '../results/flaky.js';
import { summarize } from '../results/summary.js';
import type { DrillList, DrillResult, NotRepeatedDrill, RunReport } from '../results/types.js';
import { harnessInfo } from '../util/version.js';

export interface RunReportInput {
  runId: string;
  startedAt: string;
  interrupted: boolean;
  planned: readonly PlannedDrill[];
  /** The plan before drills the same as another were left out: every scenario that declared a cleanup expectation. */
  filtered: readonly PlannedDrill[];
  /** The drills left out as the same drill as one that ran (harness/plan/not-repeated.ts). */
  notRepeated: NotRepeatedDrill[];
  repeat: number;
  shard?: ShardSpec;
  finished: DrillList;
  /** What the summary and the flaky list count: each drill's key, index, attempt and verdict. */
  judged: Iterable<Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>>;
  stale: readonly StaleReport[];
}

export function runReport(input: RunReportInput): RunReport {
  const { planned, repeat, shard } = input;
  const notRepeated = notRepeatedEntries(input.notRepeated, input.filtered);
  const judged = [...input.judged];
  const report: RunReport = {
    version: 1,
    harness: harnessInfo(),
    runId: input.runId,
    startedAt: input.startedAt,
    finishedAt: new Date().toISOString(),
    interrupted: input.interrupted,
    summary: summarize(judged),
    stale: input.stale.map((s) => ({
      drillId: s.drillId,
      pid: s.pid,
      startTime: s.startTime,
      cmdline: s.cmdline,
      endedBy: s.endedBy,
      ...(s.containedBy ? { containedBy: s.containedBy } : {}),
    })),
    drills: input.finished,
    ...(shard ? { shard: { index: shard.index, total: shard.total } } : {}),
    plan: {
      id: planFingerprint(
        planned.map((d) => d.key),
        repeat,
        notRepeated,
      ),
      drills: planned.length,
      repeat,
    },
    flaky: findFlaky(judged),
    ...(notRepeated.length > 0 ? { notRepeated } : {}),
    requirements: requirementsList(),
  };
  // The drills not repeated included: a scenario all of whose drills were left out still declared its statements.
  const expectation = judgeExpectations(declaredExpectations(input.filtered), input.finished, notRepeated);
  if (expectation) report.expectation = expectation;
  return report;
}
