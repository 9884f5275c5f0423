import type { DrillEvidence } from '../evidence/types.js';
import type { KillMode } from '../config/index.js';

export type CheckVerdict = 'pass' | 'fail' | 'unknown';
export type Verdict = CheckVerdict | 'error';

/** The data of a check that could not judge (or judged nothing): written as `{}` in results.json. */
export type NoData = Record<string, never>;

/** What a check's `run` returns: its verdict, one line a person can act on, and its typed data. */
export interface CheckOutcome<Id extends string = string, D extends object = object> {
  id: Id;
  verdict: CheckVerdict;
  /** One line a person can act on. */
  summary: string;
  data: D | NoData;
}

/**
 * A labelled list a reporter prints under a failed check (`label:` then one item a line).
 * Reporters never read a check's `data`: what they show of it, the check says here, and the
 * incident record carries it (harness/results/incident.ts: `findings`).
 */
export interface CheckDetail {
  label: string;
  items: string[];
}

/** A failed check's detail as the incident record carries it: which check found it. */
export interface CheckFinding<Id extends string = string> extends CheckDetail {
  check: Id;
}

/**
 * A check: one self-contained unit. It says when it applies (from the drill's `expect` options
 * and mode), judges the evidence, and, when it fails, says what to do and what to show.
 * Register it in harness/checks/registry.ts; nothing else switches on check ids.
 */
export interface Check<Id extends string = string, D extends object = object> {
  id: Id;
  /** Whether the check is configured for this drill and can apply to its mode at all. */
  applies(evidence: DrillEvidence, mode: KillMode): boolean;
  /**
   * The check can judge a drill whose client is never lost (a cancel drill without a later
   * kill). Checks of what a server does after losing its client leave it out.
   */
  withoutLoss?: boolean;
  run(evidence: DrillEvidence): CheckOutcome<Id, D>;
  /** What someone has to do now, when the check failed: its part of the incident record's follow-up. */
  followUp?(outcome: CheckOutcome<Id, D>, evidence: DrillEvidence): string[];
  /** What the failed check found, for the reports (the incident record's findings). */
  details?(outcome: CheckOutcome<Id, D>, evidence: DrillEvidence): CheckDetail[];
}

/** Declares a check with its id and data types inferred, so the registry knows both. */
export function defineCheck<Id extends string, D extends object>(check: Check<Id, D>): Check<Id, D> {
  return check;
}

/** The data of an outcome when the check wrote its own (not the NoData of an early `unknown`). */
export function dataOf<D extends object>(outcome: CheckOutcome<string, D>): Partial<D> {
  return outcome.data as Partial<D>;
}
