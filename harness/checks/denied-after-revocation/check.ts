import { describeRequest, firstGenerationRequests, SUCCEEDED, unclaimedRequests } from '../../evidence/queries.js';
import { firstOf, type DrillEvidence } from '../../evidence/types.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { revocationCause } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

type Request = ReturnType<typeof firstGenerationRequests>[number];

export interface DeniedAfterRevocationData {
  /** Three moments kept apart: the client became unavailable, the server's last action started, authority was revoked. */
  timeline: { clientLostAt: number; lastActionStartedAt: number | null; revokedAt: number };
  revokedAt: number;
  probe: { status: number; denied: boolean } | null;
  attempts: Array<{
    seq: number;
    afterMs: number;
    route: string;
    credential: Request['credential'];
    outcome: Request['outcome'];
    process: Request['process'] | null;
  }>;
  firstDenialMs: number | null;
  unattributed: number;
  /** Set when a process of the drill used the long-lived API key after the revocation. */
  followUp: string | null;
}

/**
 * denied-after-revocation: after revocation the probe is denied, no drill request succeeds with any
 * credential, and each attempt is journalled as denied with its process; the main check in `hang`.
 */
export const deniedAfterRevocation = defineCheck({
  id: 'denied-after-revocation',
  requirement: practice(
    'authority-ends-at-revocation',
    'Once the session is revoked, no request from the server or anything it started succeeds, whatever credential it carries.',
    'The authorization spec does not apply to stdio (credentials come from the environment); a server or helper that keeps a long-lived key keeps acting for a session that has ended.',
  ),
  matcher: { name: 'toDenyAfterRevocation', expects: 'lose its authority once the session was revoked' },
  applies: (evidence) => evidence.meta.expect.deniedAfterRevocation === true,
  run(evidence: DrillEvidence): Judgement<DeniedAfterRevocationData> {
    const revoked = firstOf(evidence, 'revoked');
    if (!revoked || !firstOf(evidence, 'client-lost')) {
      return { verdict: 'unknown', summary: 'the client was never lost, so the session was only revoked at containment', data: {} };
    }
    const probe = firstOf(evidence, 'probe');
    const lost = firstOf(evidence, 'client-lost')!;
    const requests = firstGenerationRequests(evidence);
    const attempts = requests.filter((r) => r.t >= revoked.t);
    const timeline = { clientLostAt: lost.t, lastActionStartedAt: requests.length > 0 ? requests[requests.length - 1].t : null, revokedAt: revoked.t };
    const succeeded = attempts.filter((r) => SUCCEEDED.has(r.outcome));
    const denied = attempts.filter((r) => r.outcome === 'denied');
    const unattributed = attempts.filter((r) => !r.process).length;
    const data: DeniedAfterRevocationData = {
      timeline,
      revokedAt: revoked.t,
      probe: probe ? { status: probe.status, denied: probe.denied } : null,
      attempts: attempts.map((r) => ({
        seq: r.seq,
        afterMs: Math.round(r.t - revoked.t),
        route: r.route,
        credential: r.credential,
        outcome: r.outcome,
        process: r.process ?? null,
      })),
      firstDenialMs: denied.length > 0 ? Math.round(denied[0].t - revoked.t) : null,
      unattributed,
      followUp: succeeded.some((r) => r.credential === 'api-key')
        ? 'rotate the long-lived API key: a process of the drill used it after the session was revoked'
        : null,
    };
    if (!probe?.denied) {
      return { verdict: 'fail', summary: `the revoked token still works: the probe GET /whoami was answered ${probe?.status ?? 'never'}`, data };
    }
    if (succeeded.length > 0) {
      const rotate = data.followUp ? '; rotate the long-lived API key' : '';
      return {
        verdict: 'fail',
        summary: `${succeeded.length} request${succeeded.length === 1 ? '' : 's'} succeeded after the session was revoked, first: ${describeRequest(succeeded[0])}${rotate}`,
        data,
      };
    }
    // The floor: a success with the long-lived key that no drill could claim may have been this
    // drill's; the harness cannot tell, so it never passes over it.
    const unclaimed = unclaimedRequests(evidence).filter((r) => r.t >= revoked.t && SUCCEEDED.has(r.outcome));
    if (unclaimed.length > 0) {
      return {
        verdict: 'unknown',
        summary: `the revoked token is denied, but ${unclaimed.length} request${unclaimed.length === 1 ? '' : 's'} with the long-lived API key succeeded after the revocation that no process could be tied to (the sender was gone before the remote looked): it may have been this drill's, first: ${describeRequest(unclaimed[0])}`,
        data: { ...data, unattributed: unattributed + unclaimed.length },
      };
    }
    const tail =
      attempts.length === 0
        ? 'no process of the drill tried anything after'
        : `all ${attempts.length} later attempts were denied, the first ${data.firstDenialMs} ms after`;
    return { verdict: 'pass', summary: `the revoked token is denied; ${tail}`, data };
  },
  followUp: (outcome) => [dataOf(outcome).followUp ?? 'a revoked credential still worked: find why revocation did not take'],
  details(outcome) {
    const attempts = dataOf(outcome).attempts ?? [];
    if (attempts.length === 0) return [];
    return [
      {
        label: 'requests after revocation',
        items: attempts.map((a) => `#${a.seq} +${a.afterMs} ms ${a.route} with ${a.credential} -> ${a.outcome} (pid ${a.process?.pid ?? 'unknown'})`),
      },
    ];
  },
  diagnose: (_outcome, evidence) => revocationCause(evidence),
});
