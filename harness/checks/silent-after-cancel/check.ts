import { eventsOf, type DrillEvidence } from '../../evidence/types.js';
import { cancelOrUnknown, isCancelDrill, isCancelWindow } from '../../evidence/cancel.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { SILENT_ON_CANCEL } from '../../requirements/catalog.js';

export interface SilentAfterCancelData {
  requestId: string | number;
  inFlightMs: number;
  /**
   * Messages for the cancelled request on their way before the cancel (fine): read within the
   * in-flight allowance, or before the answer to the request sent right behind the cancel.
   */
  inFlight: number;
  /** ms after the cancel at which the server answered the request sent right behind it, or null. */
  barrierMs: number | null;
  after: Array<{ seq: number; afterMs: number; what: string }>;
}

/**
 * silent-after-cancel: once the cancel is delivered, the server sends nothing more for the
 * cancelled request: no response, no progress (the spec: it MUST NOT send any further message
 * for that request). A message the server wrote before it read the cancel can only be read
 * after it; such messages are told apart by time: read within `in-flight` ms of the cancel
 * (the client paused its reading at in-flight and resumes right after the cancel, so they come
 * at once), they count as already on their way. So do messages read before the server
 * answered the request the client sent right behind the cancel (the follow-up tools/list): the
 * server reads its input in order, so those were written before it got past the cancel, however
 * slowly a loaded machine ran it. The target call's progress token is its correlation id
 * (harness/client-process/session.ts).
 */
export const silentAfterCancel = defineCheck({
  id: 'silent-after-cancel',
  requirement: SILENT_ON_CANCEL,
  matcher: { name: 'toStaySilentAfterCancel', expects: 'stay silent about a request once it was cancelled' },
  applies: (evidence) => isCancelDrill(evidence) && evidence.meta.expect.silentAfterCancel != null,
  withoutLoss: true,
  run(evidence: DrillEvidence): Judgement<SilentAfterCancelData> {
    const window = cancelOrUnknown(evidence);
    if (!isCancelWindow(window)) return window;
    const { cancel, end } = window;
    const inFlightMs = evidence.meta.expect.silentAfterCancel?.inFlight ?? 0;
    const related = eventsOf(evidence, 'rpc-in')
      .filter((e) => e.t > cancel.t && e.t <= end)
      .map((e) => ({ e, what: relation(e.message, cancel.requestId, cancel.progressToken) }))
      .filter((r): r is { e: (typeof r)['e']; what: string } => r.what !== null);
    const barrier = barrierAnswer(evidence, cancel.t, end);
    const onItsWay = (t: number): boolean => t <= cancel.t + inFlightMs || (barrier !== null && t < barrier);
    const inFlight = related.filter((r) => onItsWay(r.e.t)).length;
    const after = related.filter((r) => !onItsWay(r.e.t)).map((r) => ({ seq: r.e.seq, afterMs: Math.round(r.e.t - cancel.t), what: r.what }));
    const data = { requestId: cancel.requestId, inFlightMs, inFlight, barrierMs: barrier === null ? null : Math.round(barrier - cancel.t), after };
    const late = related.filter((r) => onItsWay(r.e.t) && r.e.t > cancel.t + inFlightMs).length;
    const onTheirWay =
      inFlight === 0
        ? ''
        : late === 0
          ? ` (${inFlight} already on its way within ${inFlightMs} ms)`
          : ` (${inFlight} already on its way: read within ${inFlightMs} ms, or before the server answered the request sent right behind the cancel)`;
    if (after.length === 0)
      return { verdict: 'pass', summary: `nothing more for the cancelled request ${JSON.stringify(cancel.requestId)} after the cancel${onTheirWay}`, data };
    const first = after[0];
    return {
      verdict: 'fail',
      summary: `${after.length} message${after.length === 1 ? '' : 's'} for the cancelled request ${JSON.stringify(cancel.requestId)} after the cancel, the first ${first.afterMs} ms after: ${first.what}`,
      data,
    };
  },
  followUp: () => ['the server kept talking about a cancelled request: stop its work and send nothing more for it once notifications/cancelled arrives'],
  details(outcome) {
    const after = dataOf(outcome).after ?? [];
    return after.length > 0 ? [{ label: 'messages after the cancel', items: after.map((m) => `#${m.seq} +${m.afterMs} ms ${m.what}`) }] : [];
  },
});

/**
 * When the answer to the first request written after the cancel was read (the follow-up), or
 * null when there was none before `end`.
 */
function barrierAnswer(evidence: DrillEvidence, cancelAt: number, end: number): number | null {
  const request = eventsOf(evidence, 'rpc-out').find((e) => e.t >= cancelAt && hasRequestId(e.message));
  if (!request) return null;
  const id = (request.message as { id: string | number }).id;
  const answer = eventsOf(evidence, 'rpc-in').find((e) => e.t >= request.t && e.t <= end && isResponseTo(e.message, id));
  return answer?.t ?? null;
}

function hasRequestId(message: unknown): boolean {
  const m = message as { id?: unknown; method?: unknown };
  return typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number');
}

function isResponseTo(message: unknown, id: string | number): boolean {
  const m = message as { id?: unknown; method?: unknown };
  return m.method === undefined && m.id === id;
}

/** How a message relates to the cancelled request: its response, or progress for it; null when it does not. */
function relation(message: unknown, requestId: string | number, progressToken: string | number | null): string | null {
  const m = message as { id?: unknown; method?: string; result?: unknown; error?: { code?: number; message?: string }; params?: { progressToken?: unknown } };
  if (isResponseTo(message, requestId)) return m.error ? `an error response (${m.error.code}: ${m.error.message})` : 'the response';
  if (m.method === 'notifications/progress' && progressToken !== null && m.params?.progressToken === progressToken) return 'a progress notification';
  return null;
}
