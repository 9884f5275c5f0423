import type { CheckResult } from '../checks/all-checks.js';
import type { Verdict } from '../checks/types.js';
import { firstOf, type DrillEvidence } from '../evidence/types.js';

/** A drill's verdict: `error` (harness or setup failed), else `fail`, else `unknown` (a check unknown or the point not reached), else `pass`. */
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
