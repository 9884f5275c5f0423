/**
 * A diagnosis for every failed check: what the drill observed that explains the failure, the
 * server's SDK and its known behaviour at EOF, and the concrete change for this case, instead
 * of a label. Each check gives its own (its `diagnose`, in its folder under harness/checks/),
 * found through the list of checks (harness/checks/all-checks.ts): nothing here names a check.
 * Derived from the evidence alone (the /proc facts are evidence too: event `diagnosis-facts`,
 * harness/drill/executor/diagnosis-facts.ts), so `crash-drill check` gives the same.
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
