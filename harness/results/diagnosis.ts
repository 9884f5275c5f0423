/**
 * A diagnosis for every failed check: what explains it, the server's SDK and its known behaviour
 * at EOF, and the change to make; each check's own `diagnose` (harness/checks/all-checks.ts).
 */
import { checkById, type CheckId, type CheckResult } from '../checks/all-checks.js';
import type { Cause } from '../checks/types.js';
import type { DrillEvidence } from '../evidence/types.js';

export interface Diagnosis extends Cause {
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
