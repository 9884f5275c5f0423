import type { DrillEvidence } from '../evidence/types.js';
import { firstOf } from '../evidence/types.js';
import { CHECKS, checkById, type CheckId, type CheckResult } from './registry.js';
import type { Check, CheckFinding, Verdict } from './types.js';

export { CHECKS } from './registry.js';
export type { CheckId, CheckResult } from './registry.js';
export type { Check, CheckDetail, CheckFinding, CheckOutcome, CheckVerdict, NoData, Verdict } from './types.js';

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

/**
 * A drill's verdict: `error` when the harness or the setup failed; else `fail` if any check
 * failed; else `unknown` if any check is unknown or the kill point was not reached; else `pass`.
 */
export function drillVerdict(evidence: DrillEvidence, checks: CheckResult[]): { verdict: Verdict; reason: string } {
  const error = firstOf(evidence, 'harness-error');
  if (error) return { verdict: 'error', reason: `${error.phase}: ${error.message}` };
  const failed = checks.filter((check) => check.verdict === 'fail');
  if (failed.length > 0) return { verdict: 'fail', reason: failed.map((check) => `${check.id}: ${check.summary}`).join(' | ') };
  const timeout = firstOf(evidence, 'point-timeout');
  if (timeout) return { verdict: 'unknown', reason: `kill point ${timeout.point} not reached within ${timeout.timeoutMs} ms: ${timeout.reason}` };
  const unknown = checks.filter((check) => check.verdict === 'unknown');
  if (unknown.length > 0) return { verdict: 'unknown', reason: unknown.map((check) => `${check.id}: ${check.summary}`).join(' | ') };
  if (checks.length === 0) return { verdict: 'unknown', reason: 'no check applies to this drill' };
  return { verdict: 'pass', reason: checks.map((check) => check.summary).join('; ') };
}
