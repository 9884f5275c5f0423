import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { getResponse, type RequestHandler } from 'msw';
import { monoNow } from '../util/clock.js';
import { Answer, type OutcomeInfo, type RequestIds } from './answer.js';
import type { Attributor } from './attribution/attributor.js';
import type { Credentials, CredentialCheck } from './credentials.js';
import type { EffectsStore } from './effects-store.js';
import type { ArmedGate, GateCandidate, ArmedGates } from './gates.js';
import type { ActiveFaults } from './faults.js';
import { BodyTooLargeError, readBody, toFetchRequest, toNodeHeaders } from './http-bridge.js';
import type { JobsStore } from './jobs-store.js';
import type { Journal } from './journal.js';
import { attachContext } from './request-context.js';
import { RequestState } from './request-state.js';
import type { RouteTable } from './routes.js';
import type { GateAction, GateHit, GatePoint, OutcomeEvent } from './types.js';

export interface PipelineDeps {
  journal: Journal;
  credentials: Credentials;
  attributor: Attributor;
  routes: RouteTable;
  gates: ArmedGates;
  faults: ActiveFaults;
  effects: EffectsStore;
  jobs: JobsStore;
  handlers: RequestHandler[];
  baseUrl: string;
  jobDurationMs: number;
  /** Aborted when the remote closes: ends fault delays at once. */
  closing: AbortSignal;
}

/**
 * One request, in order: read → journal `request` → auth → `sent` gate → status fault →
 * handler → `confirmed` gate → delay fault → drop fault → journal `outcome` → answer.
 */
export async function handleRequest(d: PipelineDeps, req: IncomingMessage, res: ServerResponse, origin?: string): Promise<void> {
  // Started on 'connection' already; runs while the body is read.
  const attributionP = d.attributor.attribute(req.socket);
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', d.baseUrl);
  let body: Buffer = Buffer.alloc(0);
  let bodyError: unknown;
  try {
    body = await readBody(req);
  } catch (err) {
    bodyError = err;
  }
  const attribution = await attributionP;

  const t = monoNow();
  const cred = d.credentials.check(header(req, 'authorization'));
  const secrets = d.credentials.secrets();
  const idempotencyKey = redact(header(req, 'idempotency-key'), secrets);
  const correlationId = redact(header(req, 'x-correlation-id'), secrets) ?? idempotencyKey;
  const { route, write } = d.routes.resolve(method, url);
  const ids: RequestIds = {
    seq: d.journal.nextSeq(),
    // A session's or a drill key's drill first: it holds even when the sender is already gone.
    drillId: cred.session?.drillId ?? cred.drillId ?? attribution.drillId,
    sessionId: cred.session?.sessionId,
  };
  d.journal.append({
    kind: 'request',
    t,
    ...ids,
    credential: cred.credential,
    credentialId: cred.credentialId,
    method,
    path: redact(url.pathname, secrets) ?? '',
    route: redact(route, secrets) ?? '',
    write,
    idempotencyKey,
    correlationId,
    process: attribution.process,
    attribution: attribution.method,
    processDrillId: attribution.drillId,
    ...(origin ? { origin } : {}),
  });
  const answer = new Answer(d.journal, req, res, ids);

  if (bodyError !== undefined) {
    if (bodyError instanceof BodyTooLargeError) {
      return answer.json(413, { error: 'body-too-large' }, { outcome: 'failed', reason: 'body-too-large' }, { connection: 'close' });
    }
    return answer.drop({ outcome: 'cancelled', reason: 'client-gone' });
  }
  const isHealth = method === 'GET' && url.pathname === '/health';
  if (!isHealth && !cred.allowed) {
    // RFC 6750 §3: a refused bearer token is answered with WWW-Authenticate.
    return answer.json(
      401,
      { error: 'unauthorized' },
      { outcome: 'denied', reason: denialReason(cred) },
      {
        'www-authenticate': 'Bearer error="invalid_token"',
      },
    );
  }

  const candidate: GateCandidate = {
    drillId: ids.drillId,
    write,
    matches: (m) => d.routes.matches(m, method, url, correlationId),
  };
  const hitOf = (gate: ArmedGate, extra: Partial<GateHit> = {}): GateHit => ({
    gateId: gate.id,
    point: gate.point,
    t: monoNow(),
    seq: ids.seq,
    drillId: ids.drillId,
    method,
    path: url.pathname,
    route,
    idempotencyKey,
    correlationId,
    process: attribution.process,
    ...extra,
  });

  if (!isHealth) {
    const gate = d.gates.take('sent', candidate);
    if (gate) {
      const action = await hold(d, gate, ids, hitOf(gate));
      if (action === 'fail') return answer.json(503, { error: 'unavailable' }, { outcome: 'failed', reason: 'gate:fail' });
      if (action === 'drop') return answer.drop({ outcome: 'failed', reason: 'gate:drop' });
      if (action === 'closed') return answer.drop({ outcome: 'cancelled', reason: 'remote-closed' });
    }
    const fault = d.faults.take('status', candidate);
    if (fault) {
      return answer.json(fault.status ?? 503, { error: 'injected-fault' }, { outcome: 'failed', reason: 'fault:status' });
    }
  }

  const state = new RequestState(
    {
      seq: ids.seq,
      drillId: ids.drillId,
      sessionId: ids.sessionId,
      credential: cred.credential,
      idempotencyKey,
      correlationId,
      process: attribution.process,
      jobDurationMs: cred.session?.jobDurationMs ?? d.jobDurationMs,
    },
    d.journal,
    d.effects,
    d.jobs,
  );
  const request = toFetchRequest(req, body, url);
  attachContext(request, state);
  let response: Response;
  try {
    response = (await getResponse(d.handlers, request, { baseUrl: d.baseUrl })) ?? Response.json({ error: 'not-found', route }, { status: 404 });
  } catch {
    // The handler's error message could echo a body value, so it is not journalled.
    return answer.json(500, { error: 'handler-error' }, { outcome: 'failed', reason: 'handler-error' });
  }
  const payload = Buffer.from(await response.arrayBuffer());
  const info: OutcomeInfo = { outcome: decideOutcome(write, response.status, state), effectId: state.effectId, jobId: state.jobId };
  const succeeded = info.outcome !== 'failed' && info.outcome !== 'denied';

  if (!isHealth && succeeded) {
    const gate = d.gates.take('confirmed', candidate);
    if (gate) {
      const action = await hold(d, gate, ids, hitOf(gate, { effectId: state.effectId, status: response.status }));
      // The effect is committed whatever happens now; only the answer changes.
      if (action === 'fail') return answer.json(503, { error: 'unavailable' }, { ...info, reason: 'gate:fail' });
      if (action === 'drop') return answer.drop({ ...info, reason: 'gate:drop' });
      if (action === 'closed') return answer.drop({ ...info, reason: 'remote-closed' });
    }
  }
  if (!isHealth) {
    const delay = d.faults.take('delay', candidate);
    if (delay) {
      try {
        await sleep(delay.ms ?? 1000, undefined, { signal: d.closing });
      } catch {
        return answer.drop({ ...info, reason: 'remote-closed' });
      }
    }
    if (succeeded && d.faults.take('drop-after-commit', candidate)) {
      return answer.drop({ ...info, reason: 'fault:drop-after-commit' });
    }
  }
  return answer.send(response.status, toNodeHeaders(response.headers), payload, info);
}

async function hold(d: PipelineDeps, gate: ArmedGate, ids: RequestIds, hit: GateHit): Promise<GateAction | 'closed'> {
  const point: GatePoint = gate.point;
  d.journal.append({ kind: 'hold', t: hit.t, ...ids, point, gateId: gate.id });
  const action = await gate.hold(hit);
  d.journal.append({ kind: 'release', t: monoNow(), ...ids, point, gateId: gate.id, action });
  return action;
}

function decideOutcome(write: boolean, status: number, state: RequestState): OutcomeEvent['outcome'] {
  if (state.created) return 'committed';
  if (state.replayed) return 'replayed';
  if (status >= 400) return 'failed';
  // A user's write handler that does not use the effect store: a success counts as a commit.
  return write ? 'committed' : 'ok';
}

function denialReason(cred: CredentialCheck): string {
  if (cred.credential === 'none') return 'no-credential';
  if (cred.credential === 'unknown') return 'unknown-credential';
  return cred.credential === 'session' ? 'revoked' : 'rotated-api-key';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Removes any issued secret from a value that goes into the journal. */
function redact(value: string | undefined, secrets: readonly string[]): string | undefined {
  if (value === undefined) return undefined;
  let out = value;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}
