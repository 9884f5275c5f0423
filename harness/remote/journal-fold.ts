import type { JournalEvent, RequestRecord } from './types.js';

/** Folds journal events into one record per request; pure, so a saved log folds without a remote. Unknown seqs are ignored. */
export function foldRequests(events: readonly JournalEvent[]): RequestRecord[] {
  const bySeq = new Map<number, RequestRecord>();
  for (const e of events) {
    if (e.kind === 'request') {
      bySeq.set(e.seq, {
        seq: e.seq,
        t: e.t,
        drillId: e.drillId,
        sessionId: e.sessionId,
        credential: e.credential,
        credentialId: e.credentialId,
        method: e.method,
        path: e.path,
        route: e.route,
        write: e.write,
        idempotencyKey: e.idempotencyKey,
        correlationId: e.correlationId,
        process: e.process,
        attribution: e.attribution,
        processDrillId: e.processDrillId,
        ...(e.origin ? { origin: e.origin } : {}),
        outcome: 'held',
        status: 0,
        holds: [],
      });
      continue;
    }
    if (!('seq' in e) || e.seq === undefined || e.kind === 'job') continue;
    const r = bySeq.get(e.seq);
    if (!r) continue;
    switch (e.kind) {
      case 'hold':
        r.holds.push({ point: e.point, gateId: e.gateId, t: e.t });
        break;
      case 'release': {
        const h = r.holds.find((x) => x.gateId === e.gateId && x.releasedT === undefined);
        if (h) {
          h.releasedT = e.t;
          h.action = e.action;
        }
        break;
      }
      case 'commit':
        r.effectId = e.effectId;
        if (e.jobId !== undefined) r.jobId = e.jobId;
        if (e.keyedBy !== undefined) r.keyedBy = e.keyedBy;
        break;
      case 'outcome':
        r.outcome = e.outcome;
        r.status = e.status;
        if (e.effectId !== undefined) r.effectId = e.effectId;
        if (e.jobId !== undefined) r.jobId = e.jobId;
        if (e.reason !== undefined) r.reason = e.reason;
        break;
      case 'delivery':
        r.delivered = e.delivered;
        break;
      case 'disconnect':
        r.disconnectedT = e.t;
        break;
    }
  }
  // A request without an outcome event stays `held`: the remote has it and has not answered
  // (a gate, a delay or a running handler). The remote writes `cancelled` when it gives up.
  return [...bySeq.values()];
}
