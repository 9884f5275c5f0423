import type { DrillEvidence } from '../evidence/types.js';
import type { KillMode } from '../config/index.js';

export type CheckId =
  | 'exit-on-eof'
  | 'no-survivors'
  | 'stdout-clean'
  | 'idempotent-effects'
  | 'denied-after-revocation'
  | 'quiet-after-loss'
  | 'jobs-settled';
export type CheckVerdict = 'pass' | 'fail' | 'unknown';
export type Verdict = CheckVerdict | 'error';

export interface CheckResult {
  id: CheckId;
  verdict: CheckVerdict;
  /** One line a person can act on. */
  summary: string;
  data: Record<string, unknown>;
}

export interface Check {
  id: CheckId;
  /** Whether the check is configured for this drill and can apply to its mode at all. */
  applies(evidence: DrillEvidence, mode: KillMode): boolean;
  run(evidence: DrillEvidence): CheckResult;
}
