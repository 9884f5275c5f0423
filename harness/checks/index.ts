import type { DrillEvidence } from '../evidence/types.js';
import { firstOf } from '../evidence/types.js';
import { exitOnEof } from './exit-on-eof.js';
import { noSurvivors } from './no-survivors.js';
import { stdoutClean } from './stdout-clean.js';
import { idempotentEffects } from './idempotent-effects.js';
import { deniedAfterRevocation } from './denied-after-revocation.js';
import { quietAfterLoss } from './quiet-after-loss.js';
import { jobsSettled } from './jobs-settled.js';
import type { Check, CheckResult, Verdict } from './types.js';

export type { Check, CheckId, CheckResult, CheckVerdict, Verdict } from './types.js';

export const CHECKS: readonly Check[] = [exitOnEof, noSurvivors, stdoutClean, idempotentEffects, deniedAfterRevocation, quietAfterLoss, jobsSettled];

/** Runs every check that applies to the drill. A check that cannot apply is left out, never counted as passed. */
export function runChecks(evidence: DrillEvidence): CheckResult[] {
  return CHECKS.filter((check) => check.applies(evidence, evidence.meta.mode)).map((check) => check.run(evidence));
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
