import { firstOf, type DrillEvidence, type EvidenceOf } from './types.js';

/** `unknown`, with why: a check's judgement (harness/checks/types.ts) when the drill never got to what it judges. */
export type NotReached = { verdict: 'unknown'; summary: string; data: Record<string, never> };

/** The moment the server lost its client, or the `unknown` result every loss-based check gives when the drill never got that far (the kill point was not reached). */
export function lossOrUnknown(evidence: DrillEvidence): EvidenceOf<'client-lost'> | NotReached {
  const loss = firstOf(evidence, 'client-lost');
  if (loss) return loss;
  const timeout = firstOf(evidence, 'point-timeout');
  const summary = timeout
    ? `the kill point ${timeout.point} was not reached within ${timeout.timeoutMs} ms: ${timeout.reason}`
    : 'the client was never lost, so there is nothing to judge';
  return { verdict: 'unknown', summary, data: {} };
}

export function isNotReached(value: EvidenceOf<'client-lost'> | NotReached): value is NotReached {
  return 'verdict' in value;
}
