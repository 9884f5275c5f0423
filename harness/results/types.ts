import type { Verdict } from '../checks/index.js';
import { EXIT } from '../cli/exit-codes.js';
import type { KillMode, KillPoint } from '../config/index.js';
import type { DrillResult } from './judge.js';

/**
 * Kill points and modes, declared once in harness/config and re-exported here, where reporters
 * (which import only result types) take them: KILL_POINTS is in the order a call passes them.
 */
export { KILL_MODES, KILL_POINTS } from '../config/index.js';
export type { KillMode, KillPoint } from '../config/index.js';
export type { CheckDetail, CheckFinding, CheckId, CheckResult, CheckVerdict, Verdict } from '../checks/index.js';
export type { ContainmentStep } from '../observe/index.js';

export type { DrillResult } from './judge.js';
export type { ExitInfo, ExitClass } from './exit-info.js';
export type { IncidentRecord, Moment } from './incident.js';

export interface RunSummary {
  pass: number;
  fail: number;
  unknown: number;
  error: number;
}

/** Processes of an earlier run that was killed before it could contain them, found and contained now. */
export interface StaleProcess {
  drillId: string;
  pid: number;
  startTime: number;
  cmdline: string[];
  endedBy: string;
  /** 'watchdog': the dead run's holder ended it; 'sweep': this run's start-up sweep did. */
  containedBy?: 'sweep' | 'watchdog';
}

/** A drill key whose repeated attempts did not all get the same verdict (harness/results/flaky.ts). */
export interface FlakyEntry {
  key: string;
  /** Every attempt's verdict, in attempt order. */
  verdicts: Verdict[];
}

/** Which plan a run executed: shards of one plan share it, and `merge` refuses any other. */
export interface PlanInfo {
  /** Hash of the ordered drill keys (after filters, before sharding) and the repeat count. */
  id: string;
  /** Drills in the whole plan (all shards), each counted once. */
  drills: number;
  /** Attempts per drill (`--repeat`). */
  repeat: number;
}

/** The shape of results.json. */
export interface RunResults {
  version: 1;
  harness: { name: string; version: string };
  runId: string;
  startedAt: string;
  finishedAt: string;
  interrupted: boolean;
  summary: RunSummary;
  stale: StaleProcess[];
  drills: DrillResult[];
  /** Set when the run was one shard of a plan (`--shard index/total`). */
  shard?: { index: number; total: number };
  plan?: PlanInfo;
  /** Drill keys whose attempts disagreed; they count as failed for the exit code. */
  flaky?: FlakyEntry[];
  /** Set by `merge`: the runs it combined, in shard order. */
  mergedFrom?: { runId: string; shard: { index: number; total: number } | null }[];
}

/** What a reporter is told when a drill starts (reporters never see processes). */
export interface DrillInfo {
  id: string;
  key: string;
  scenario: string;
  point: KillPoint;
  mode: KillMode;
}

export function summarize(drills: DrillResult[]): RunSummary {
  const summary: RunSummary = { pass: 0, fail: 0, unknown: 0, error: 0 };
  for (const drill of drills) summary[drill.verdict]++;
  return summary;
}

/** docs/design.md, "Exit codes": 0 all pass, 1 some failed, 2 some unknown and none failed, 4 the harness failed. */
export function exitCodeFor(summary: RunSummary): number {
  if (summary.fail > 0) return EXIT.failed;
  if (summary.error > 0) return EXIT.harness;
  if (summary.unknown > 0) return EXIT.unknown;
  return EXIT.ok;
}
