/** results.json and a drill's result, types only: reporters import only this and harness/results/constants.ts (test/layering.test.ts). */
import type { CheckId } from '../checks/all-checks.js';
import type { RequirementsList } from './requirements.js';
import type { Verdict } from '../checks/types.js';
import type { KillMode, KillPoint } from '../config/index.js';
import type { DrillResult } from './judge.js';
import type { ProfileRef } from '../client-profiles/names.js';
import type { BaselineStatementInfo, ExpectationResults } from './expectation-results.js';

export type { KillMode, KillPoint } from '../config/index.js';
export type { StatementId } from '../config/index.js';
export type { Requirement } from '../requirements/requirement.js';
export type { RequirementsList } from './requirements.js';
export type { CheckId, CheckResult } from '../checks/all-checks.js';
export type { CheckDetail, CheckFinding, CheckVerdict, Verdict } from '../checks/types.js';
/** The one containment step (harness/containment/step.ts): reporters show steps only through describeStep (harness/results/constants.ts). */
export type { ContainmentStep } from '../containment/step.js';

export type { DrillResult } from './judge.js';
export type { PointProcess } from '../evidence/types.js';
export type { ExitInfo, ExitClass } from './exit-info-types.js';
export type { ProfileRef } from '../client-profiles/names.js';
export type { IncidentRecord, Moment } from './incident.js';
export type { Diagnosis } from './diagnosis.js';
export type {
  BaselineStatementInfo,
  ExpectationResults,
  ServerExpectation,
  StatementResult,
  StatementStatus,
  WouldShow,
} from './expectation-results.js';

export interface RunSummary {
  pass: number;
  fail: number;
  unknown: number;
  error: number;
  /** Drills whose only failures a baseline lists (harness/baseline): they do not fail the run. Absent without one. */
  known?: number;
}

/** A drill's verdict with a baseline: `known` when every failed check is listed (and none is unknown); checks keep their own verdicts. */
export type DrillVerdict = Verdict | 'known';

/** A failed check the baseline lists: shown as known, apart from new failures. */
export interface KnownFailure {
  check: CheckId;
  /** The baseline entry's reason, as people wrote it ('' when nobody has yet). */
  reason: string;
}

/** One entry of a baseline file (harness/baseline/schema.ts). */
export interface BaselineEntryInfo {
  drill: string;
  /** The check, or null for the drill itself (an error, or unknown without a check to blame). */
  check: CheckId | null;
  verdict: 'fail' | 'unknown' | 'error';
  reason: string;
}

/** What a baseline did to a run (results.json `baseline`). */
export interface BaselineInfo {
  file: string;
  entries: number;
  known: number;
  /** Listed entries whose drill ran and that now pass: the run fails until they are removed. */
  stale: BaselineEntryInfo[];
  /** Set when `--update-baseline` rewrote the file after the run. */
  updated?: { added: number; removed: number };
  /** The file's statement entries (cleanup expectations known not met); set when the run judged an expectation or the file lists some. */
  statements?: { entries: number; known: number; stale: BaselineStatementInfo[] };
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
  verdicts: DrillVerdict[];
}

/**
 * A drill left out as the same drill as one that ran (harness/plan/not-repeated.ts): its verdict
 * is that drill's. Its own scenario and client profile are given (older results give key and
 * sameAs alone); its subject, point and mode are those of the drill that ran.
 */
export interface NotRepeatedDrill {
  key: string;
  sameAs: string;
  scenario?: string;
  clientProfile?: ProfileRef;
  /** Its profile's range of versions, as a drill's `clientVersions`. */
  clientVersions?: string;
  /** The steps of its own profile it would use that rest on no source, as a drill's `unsourcedSteps`. */
  unsourcedSteps?: DrillResult['unsourcedSteps'];
  /** Left out at run time, the evidence of `sameAs` (a drill in another mode) showing it the same drill: its own mode, and why. */
  byEvidence?: { mode: KillMode; reason: string };
}

/** Which plan a run executed: shards of one plan share it, and `merge` refuses any other. */
export interface PlanInfo {
  /** Hash of the ordered drill keys (after filters, before sharding) and the repeat count. */
  id: string;
  drills: number;
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
  /** Drills of the plan left out as the same drill as one that ran; absent when none was. */
  notRepeated?: NotRepeatedDrill[];
  /** Set when the run had a baseline (`--baseline`, config `baseline`). */
  baseline?: BaselineInfo;
  /** Each server's cleanup expectation, judged (harness/expectation/); set when a scenario declares one. */
  expectation?: ExpectationResults;
  /** Each check's and statement's requirement (harness/requirements/), for the reports. */
  requirements?: RequirementsList;
  mergedFrom?: { runId: string; shard: { index: number; total: number } | null }[];
}

/** A run's drills as the reporters get them: an array, or a CLI run's spool (harness/results/drill-spool.ts), read from disk on demand. */
export interface DrillList extends Iterable<DrillResult> {
  readonly length: number;
  at(index: number): DrillResult | undefined;
}

/** What onRunEnd hands the reporters: results.json's fields, the drills as a DrillList. */
export type RunReport = Omit<RunResults, 'drills'> & { drills: DrillList };

/** What a reporter is told when a drill starts (reporters never see processes). */
export interface DrillInfo {
  id: string;
  key: string;
  scenario: string;
  point: KillPoint;
  mode: KillMode;
}
