/**
 * The one list of checks and the only place that goes through it. To add one: its folder
 * (check.ts, see types.ts), a line here, and an `expect` option in harness/config if any.
 */
import type { DrillEvidence } from '../evidence/types.js';
import { activityRecorded } from './activity-recorded/check.js';
import { aliveAfterCancel } from './alive-after-cancel/check.js';
import { deniedAfterRevocation } from './denied-after-revocation/check.js';
import { exitOnEof } from './exit-on-eof/check.js';
import { idempotentEffects } from './idempotent-effects/check.js';
import { jobsSettled } from './jobs-settled/check.js';
import { noSurvivors } from './no-survivors/check.js';
import { quietAfterLoss } from './quiet-after-loss/check.js';
import { silentAfterCancel } from './silent-after-cancel/check.js';
import { stopsAfterCancel } from './stops-after-cancel/check.js';
import { stdoutClean } from './stdout-clean/check.js';
import type { Check, CheckFinding, CheckOutcome } from './types.js';

/** In the order they run and are reported. */
export const CHECKS = [
  exitOnEof,
  noSurvivors,
  stdoutClean,
  idempotentEffects,
  deniedAfterRevocation,
  quietAfterLoss,
  jobsSettled,
  activityRecorded,
  silentAfterCancel,
  stopsAfterCancel,
  aliveAfterCancel,
] as const;

type Registered = (typeof CHECKS)[number];

export type CheckId = Registered['id'];

/** A check's result in a drill: one member per registered check, with that check's typed data. */
export type CheckResult = Registered extends infer C ? (C extends Check<infer Id, infer D> ? CheckOutcome<Id, D> : never) : never;

export function checkById(id: string): Check | undefined {
  return (CHECKS as readonly Check[]).find((check) => check.id === id);
}

/** Runs every check that applies to the drill. A check that cannot apply is left out, never counted as passed. */
export function runChecks(evidence: DrillEvidence): CheckResult[] {
  // A cancel drill with a later kill (cancel.then) is also a drill of that mode: the loss checks judge its second half.
  const { mode, cancel } = evidence.meta;
  const lossMode = mode === 'cancel' ? (cancel?.then ?? 'cancel') : mode;
  return (CHECKS as readonly Check[])
    .filter((check) => (lossMode !== 'cancel' || check.withoutLoss === true) && check.applies(evidence, lossMode))
    .map((check) => check.run(evidence) as CheckResult);
}

/**
 * What the failed checks contribute to the incident record, each check saying its own: what
 * to do now (follow-up) and what it found (findings, which the reports print under the check).
 */
export function failedCheckContributions(evidence: DrillEvidence, results: CheckResult[]): { followUp: string[]; findings: CheckFinding<CheckId>[] } {
  const followUp: string[] = [];
  const findings: CheckFinding<CheckId>[] = [];
  for (const result of results) {
    const check = checkById(result.id);
    if (result.verdict !== 'fail' || !check) continue;
    followUp.push(...(check.followUp?.(result, evidence) ?? []));
    for (const detail of check.details?.(result, evidence) ?? []) findings.push({ check: result.id, ...detail });
  }
  return { followUp, findings };
}
