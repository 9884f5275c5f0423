import { firstOf, type DrillEvidence, type EvidenceOf } from '../evidence/types.js';
import type { Judgement } from './types.js';

/**
 * The moment the server lost its client, or the `unknown` result every loss-based check gives
 * when the drill never got that far (the kill point was not reached).
 */
export function lossOrUnknown(evidence: DrillEvidence): EvidenceOf<'client-lost'> | Judgement<never> {
  const loss = firstOf(evidence, 'client-lost');
  if (loss) return loss;
  const timeout = firstOf(evidence, 'point-timeout');
  const summary = timeout
    ? `the kill point ${timeout.point} was not reached within ${timeout.timeoutMs} ms: ${timeout.reason}`
    : 'the client was never lost, so there is nothing to judge';
  return { verdict: 'unknown', summary, data: {} };
}

export function isCheckResult(value: EvidenceOf<'client-lost'> | Judgement<never>): value is Judgement<never> {
  return 'verdict' in value;
}
