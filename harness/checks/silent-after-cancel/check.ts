import { eventsOf, type DrillEvidence, type EvidenceOf } from '../../evidence/types.js';
import { cancelOrUnknown, isCancelDrill, isCancelWindow } from '../../evidence/cancel.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { SILENT_ON_CANCEL } from '../../requirements/catalog.js';
import { cancellationIn } from './cancellation.js';

export interface SilentAfterCancelData {
  requestId: string | number;
  /** The scenario's word that the call's own work cannot end before the server reads the cancel. */
  outlastsCancel: boolean;
  /** What the client read from the server's stdout just before it wrote the cancel (null: evidence without it). */
  drained: { bytes: number; complete: boolean } | null;
  /** Messages for the cancelled request read before the cancel was written: they crossed it (fine). */
  crossed: number;
  /** ms after the cancel at which the server answered the request sent right behind it, or null. */
  barrierMs: number | null;
  /** Answers read after the cancel that are the call's own end and may have crossed it inside the server (fine). */
  ownEnd: Message[];
  /** Messages for the cancelled request the cancel caused or that came after the server had read it. */
  after: Message[];
}

interface Message {
  seq: number;
  afterMs: number;
  what: string;
  /** Why it fails (in `after`) or may have crossed (in `ownEnd`). */
  why: string;
}

/**
 * silent-after-cancel: once the server has the cancel it sends nothing more for the request (the
 * spec). Judged by what a message is and the order of the server's output, never by read times:
 * - read before the cancel was written (the client drains first: harness/shared/
 *   recording-transport.ts, writeAfterDrain): it crossed the cancel, fine;
 * - a cancellation answer (cancellation.ts) read after it: fails;
 * - progress read after the answer to the follow-up tools/list sent behind the cancel: fails;
 * - with `outlasts-cancel`, the call's answer read after the cancel: fails (its progress still goes
 *   by the follow-up's answer: a report written just before the server read the cancel crosses it
 *   whatever the call's length; era-matrix's ignores-cancel at child-spawned met one under load);
 * - any other answer read after it may have crossed it inside the server: passes, and says so.
 * The call's progress token is its correlation id (harness/shared/client-session.ts).
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
    const outlastsCancel = evidence.meta.expect.silentAfterCancel?.outlastsCancel ?? false;
    const related = eventsOf(evidence, 'rpc-in')
      .filter((e) => e.t <= end)
      .map((e) => ({ e, what: relation(e.message, cancel.requestId, cancel.progressToken) }))
      .filter((r): r is { e: (typeof r)['e']; what: string } => r.what !== null);
    const barrier = barrierAnswer(evidence, cancel, end);
    const crossed = related.filter((r) => r.e.seq < cancel.seq).length;
    const after: Message[] = [];
    const ownEnd: Message[] = [];
    for (const { e, what } of related) {
      if (e.seq < cancel.seq) continue;
      const at = { seq: e.seq, afterMs: Math.round(e.t - cancel.t), what };
      const progress = what === PROGRESS;
      const caused = progress ? null : cancellationIn(e.message);
      if (caused !== null) after.push({ ...at, why: `a cancellation (${caused}): the cancel caused it` });
      else if (outlastsCancel && !progress) after.push({ ...at, why: 'the call cannot have ended before the server read the cancel (outlasts-cancel)' });
      else if (progress && barrier !== null && e.seq > barrier.seq)
        after.push({ ...at, why: 'read after the server answered the request sent behind the cancel, so written after it read the cancel' });
      else if (!progress) ownEnd.push({ ...at, why: 'the call’s own answer, not a cancellation: it may have crossed the cancel' });
      else ownEnd.push({ ...at, why: 'read before the server answered the request sent behind the cancel: it may have crossed the cancel' });
    }
    const data: SilentAfterCancelData = {
      requestId: cancel.requestId,
      outlastsCancel,
      drained: cancel.drained ?? null,
      crossed,
      barrierMs: barrier === null ? null : Math.round(barrier.t - cancel.t),
      ownEnd,
      after,
    };
    const id = JSON.stringify(cancel.requestId);
    if (after.length === 0) return { verdict: 'pass', summary: `nothing the cancel caused for the cancelled request ${id}${allowed(crossed, ownEnd)}`, data };
    const first = after[0];
    return {
      verdict: 'fail',
      summary: `${after.length} message${after.length === 1 ? '' : 's'} for the cancelled request ${id} after the cancel, the first ${first.afterMs} ms after: ${first.what}, ${first.why}`,
      data,
    };
  },
  followUp: () => ['the server kept talking about a cancelled request: stop its work and send nothing more for it once notifications/cancelled arrives'],
  details(outcome) {
    const data = dataOf(outcome);
    const list = (messages: Message[] | undefined) => (messages ?? []).map((m) => `#${m.seq} +${m.afterMs} ms ${m.what}: ${m.why}`);
    return [
      ...((data.after ?? []).length > 0 ? [{ label: 'messages after the cancel', items: list(data.after) }] : []),
      ...((data.ownEnd ?? []).length > 0 ? [{ label: 'answers that may have crossed the cancel', items: list(data.ownEnd) }] : []),
    ];
  },
});

const PROGRESS = 'a progress notification';

/** What passed and why, in the summary's parentheses: what crossed the cancel, and what may have. */
function allowed(crossed: number, ownEnd: Message[]): string {
  const parts = [
    ...(crossed > 0 ? [`${crossed} read before the cancel was written, which crossed it`] : []),
    ...(ownEnd.length > 0 ? [`${ownEnd.length} read after it that is not a cancellation and may have crossed it: ${ownEnd[0].what}`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}

/** The answer to the first request written after the cancel (the follow-up), or null before `end`. */
function barrierAnswer(evidence: DrillEvidence, cancel: EvidenceOf<'cancel-sent'>, end: number): { seq: number; t: number } | null {
  const request = eventsOf(evidence, 'rpc-out').find((e) => e.seq > cancel.seq && hasRequestId(e.message));
  if (!request) return null;
  const id = (request.message as { id: string | number }).id;
  const answer = eventsOf(evidence, 'rpc-in').find((e) => e.seq > request.seq && e.t <= end && isResponseTo(e.message, id));
  return answer ? { seq: answer.seq, t: answer.t } : null;
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
  const m = message as {
    id?: unknown;
    method?: string;
    result?: { isError?: unknown; content?: Array<{ type?: unknown; text?: string }> };
    error?: { code?: number; message?: string };
    params?: { progressToken?: unknown };
  };
  if (isResponseTo(message, requestId)) {
    if (m.error) return `an error response (${m.error.code}: ${m.error.message})`;
    const text = m.result?.isError === true ? m.result.content?.find((c) => c.type === 'text')?.text : undefined;
    return text === undefined ? 'the response' : `an error result (${text.length > 80 ? `${text.slice(0, 77)}...` : text})`;
  }
  if (m.method === 'notifications/progress' && progressToken !== null && m.params?.progressToken === progressToken) return PROGRESS;
  return null;
}
