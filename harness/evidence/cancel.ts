import type { NotReached } from './loss.js';
import { firstOf, type DrillEvidence, type EvidenceOf } from './types.js';

/** What a cancel check judges: the cancel, and where the drill stopped watching what followed it. */
export interface CancelWindow {
  cancel: EvidenceOf<'cancel-sent'>;
  /** The later kill (cancel.then) or the start of containment: after it the client reads nothing more. */
  end: number;
  cutByLoss: boolean;
}

/** The cancel of a cancel drill, or the `unknown` result every cancel check gives when the drill never got that far. */
export function cancelOrUnknown(evidence: DrillEvidence): CancelWindow | NotReached {
  const cancel = firstOf(evidence, 'cancel-sent');
  if (!cancel) {
    const timeout = firstOf(evidence, 'point-timeout');
    const summary = timeout
      ? `the kill point ${timeout.point} was not reached within ${timeout.timeoutMs} ms: ${timeout.reason}`
      : 'the target call was never cancelled, so there is nothing to judge';
    return { verdict: 'unknown', summary, data: {} };
  }
  const loss = evidence.events.find((e): e is EvidenceOf<'client-lost'> => e.type === 'client-lost' && e.t >= cancel.t);
  const containment = firstOf(evidence, 'containment-start');
  const end = loss?.t ?? containment?.t ?? Infinity;
  return { cancel, end, cutByLoss: loss !== undefined };
}

export function isCancelWindow(value: CancelWindow | NotReached): value is CancelWindow {
  return !('verdict' in value);
}

/** The cancel checks judge cancel drills only (with or without a later kill). */
export function isCancelDrill(evidence: DrillEvidence): boolean {
  return evidence.meta.mode === 'cancel';
}
