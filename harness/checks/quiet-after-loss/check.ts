import { serverToldOfLoss } from '../../evidence/client-signals.js';
import { describeRequest, firstGenerationRequests } from '../../evidence/queries.js';
import type { DrillEvidence } from '../../evidence/types.js';
import { isNotReached, lossOrUnknown } from '../../evidence/loss.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { quietCause } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

export interface QuietAfterLossData {
  lossAt: number;
  writesAfterLoss: Array<{ seq: number; afterMs: number; route: string; outcome: string; pid: number | null }>;
  /** Writes after the loss that belong to the call already in flight (fine). */
  inFlightWrites: number;
}

/**
 * quiet-after-loss: no new write after the client is lost; cancellations, status reads and the
 * in-flight call's own write (its correlation id) are fine.
 */
export const quietAfterLoss = defineCheck({
  id: 'quiet-after-loss',
  requirement: practice(
    'no-write-after-loss',
    'A server starts no new external write after it has lost its client.',
    'Work done after the client died is work nobody can tie to a session or see the result of; the spec only asks the server to exit.',
  ),
  matcher: { name: 'toStayQuietAfterLoss', expects: 'stop writing once its client was gone' },
  applies: (evidence, mode) => evidence.meta.expect.quietAfterLoss === true && serverToldOfLoss(mode),
  run(evidence: DrillEvidence): Judgement<QuietAfterLossData> {
    const loss = lossOrUnknown(evidence);
    if (isNotReached(loss)) return loss;
    const target = evidence.meta.correlationId;
    const after = firstGenerationRequests(evidence).filter((r) => r.write && r.t > loss.t);
    const fresh = after.filter((r) => r.correlationId !== target && r.idempotencyKey !== target);
    const data = {
      lossAt: loss.t,
      writesAfterLoss: fresh.map((r) => ({ seq: r.seq, afterMs: Math.round(r.t - loss.t), route: r.route, outcome: r.outcome, pid: r.process?.pid ?? null })),
      inFlightWrites: after.length - fresh.length,
    };
    if (fresh.length === 0) {
      const inFlight = after.length > 0 ? ` (the in-flight call's own write arrived ${Math.round(after[0].t - loss.t)} ms after)` : '';
      return { verdict: 'pass', summary: `no new write after the client was lost${inFlight}`, data };
    }
    const first = fresh[0];
    return {
      verdict: 'fail',
      summary: `${fresh.length} new write${fresh.length === 1 ? '' : 's'} after the client was lost, the first ${Math.round(first.t - loss.t)} ms after: ${describeRequest(first)}`,
      data,
    };
  },
  // What to change is the drill's diagnosis (harness/checks/stdout-clean/diagnosis.ts).
  details(outcome) {
    const writes = dataOf(outcome).writesAfterLoss ?? [];
    return writes.length > 0
      ? [
          {
            label: 'writes after the client was lost',
            items: writes.map((w) => `#${w.seq} +${w.afterMs} ms ${w.route} -> ${w.outcome} (pid ${w.pid ?? 'unknown'})`),
          },
        ]
      : [];
  },
  diagnose: (_outcome, evidence) => quietCause(evidence),
});
