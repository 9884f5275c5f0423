import type { DrillEvidence } from '../../evidence/types.js';
import { firstOf } from '../../evidence/types.js';
import { cancelOrUnknown, isCancelDrill, isCancelWindow } from '../../evidence/cancel.js';
import { defineCheck, type Judgement } from '../types.js';
import { CANCEL_RACES_GRACEFUL } from '../../requirements/catalog.js';

export interface AliveAfterCancelData {
  deadlineMs: number;
  answeredAfterMs: number | null;
  detail: string;
}

/**
 * alive-after-cancel: after the cancel the server still answers a follow-up tools/list within the
 * deadline; unknown when a later kill (cancel.then) came first.
 */
export const aliveAfterCancel = defineCheck({
  id: 'alive-after-cancel',
  requirement: CANCEL_RACES_GRACEFUL,
  matcher: { name: 'toStayAliveAfterCancel', expects: 'still answer after a cancel' },
  applies: (evidence) => isCancelDrill(evidence) && evidence.meta.expect.aliveAfterCancel != null,
  withoutLoss: true,
  run(evidence: DrillEvidence): Judgement<AliveAfterCancelData> {
    const window = cancelOrUnknown(evidence);
    if (!isCancelWindow(window)) return window;
    const { cancel, end, cutByLoss } = window;
    const deadlineMs = evidence.meta.expect.aliveAfterCancel?.deadline ?? 0;
    const followUp = firstOf(evidence, 'follow-up');
    const afterMs = followUp ? Math.round(followUp.t - cancel.t) : null;
    if (followUp?.ok && followUp.t <= end && afterMs! <= deadlineMs) {
      return {
        verdict: 'pass',
        summary: `the server answered a follow-up ${followUp.detail.replace(/^tools\/list answered/, 'tools/list')} ${afterMs} ms after the cancel`,
        data: { deadlineMs, answeredAfterMs: afterMs, detail: followUp.detail },
      };
    }
    if (followUp && !followUp.ok && followUp.t <= end) {
      return {
        verdict: 'fail',
        summary: `the follow-up after the cancel failed ${afterMs} ms after it: ${followUp.detail}`,
        data: { deadlineMs, answeredAfterMs: null, detail: followUp.detail },
      };
    }
    if (cutByLoss && end < cancel.t + deadlineMs) {
      return {
        verdict: 'unknown',
        summary: `the client was killed ${Math.round(end - cancel.t)} ms after the cancel, before the follow-up was answered`,
        data: { deadlineMs, answeredAfterMs: null, detail: 'cut short' },
      };
    }
    const detail = followUp ? `answered after ${afterMs} ms` : 'no answer';
    return {
      verdict: 'fail',
      summary: `the server did not answer tools/list within ${deadlineMs} ms of the cancel (${detail})`,
      data: { deadlineMs, answeredAfterMs: afterMs, detail },
    };
  },
  followUp: () => ['the server stopped serving after a cancel: a cancel ends one request, not the connection'],
  details(outcome) {
    return outcome.data && 'detail' in outcome.data ? [{ label: 'follow-up tools/list', items: [outcome.data.detail] }] : [];
  },
});
