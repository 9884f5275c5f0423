import { firstOf, type DrillEvidence, type EvidenceOf } from '../evidence/types.js';
import type { CheckOutcome } from './types.js';

/**
 * The moment the server lost its client, or the `unknown` result every loss-based check gives
 * when the drill never got that far (the kill point was not reached).
 */
export function lossOrUnknown<Id extends string>(evidence: DrillEvidence, id: Id): EvidenceOf<'client-lost'> | CheckOutcome<Id, never> {
  const loss = firstOf(evidence, 'client-lost');
  if (loss) return loss;
  const timeout = firstOf(evidence, 'point-timeout');
  const summary = timeout
    ? `the kill point ${timeout.point} was not reached within ${timeout.timeoutMs} ms: ${timeout.reason}`
    : 'the client was never lost, so there is nothing to judge';
  return { id, verdict: 'unknown', summary, data: {} };
}

export function isCheckResult<Id extends string>(value: EvidenceOf<'client-lost'> | CheckOutcome<Id, never>): value is CheckOutcome<Id, never> {
  return 'verdict' in value;
}
