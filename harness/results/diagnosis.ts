/**
 * A diagnosis for every failed check: what explains the failure, the server's SDK and its known
 * behaviour at EOF, and the change to make. Each check gives its own `diagnose`
 * (harness/checks/all-checks.ts); derived from the evidence alone, so `crash-drill check` agrees.
 */
import { checkById, type CheckId, type CheckResult } from '../checks/all-checks.js';
import type { Cause } from '../checks/types.js';
import type { DrillEvidence } from '../evidence/types.js';

export interface Diagnosis extends Cause {
  /** The failed check this explains. */
  check: CheckId;
}

export function diagnose(evidence: DrillEvidence, checks: CheckResult[]): Diagnosis[] {
  return checks.flatMap((result) => {
    if (result.verdict !== 'fail') return [];
    const cause = checkById(result.id)?.diagnose?.(result, evidence) ?? null;
    const causes = cause === null ? [] : Array.isArray(cause) ? cause : [cause];
    return causes.map((c) => ({ check: result.id, ...c }));
  });
}
