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

/** A request once read and journalled: what every later stage reads. */
interface Received {
  d: PipelineDeps;
  req: IncomingMessage;
  method: string;
  url: URL;
  route: string;
  write: boolean;
  ids: RequestIds;
  cred: CredentialCheck;
  idempotencyKey: string | undefined;
  correlationId: string | undefined;
  process: GateHit['process'];
  body: Buffer;
  bodyError: unknown;
  /** `GET /health` passes no gate and no fault. */
  isHealth: boolean;
  answer: Answer;
  candidate: GateCandidate;
}

/** What the handler gave: its response, read, and the outcome it came to. */
interface Handled {
  response: Response;
  payload: Buffer;
  info: OutcomeInfo;
  state: RequestState;
}

/**
 * One request, in stages: read and journal `request` → refusals (body, auth) → `sent` gate and
 * status fault → handler → `confirmed` gate, delay and drop faults → answer (journal `outcome`).
 * A stage that answers returns true, and the request ends there.
 */
export async function handleRequest(d: PipelineDeps, req: IncomingMessage, res: ServerResponse, origin?: string): Promise<void> {
  const r = await receive(d, req, res, origin);
  if ((await refuse(r)) || (await beforeHandler(r))) return;
  const handled = await runHandler(r);
  if (!handled || (await afterHandler(r, handled))) return;
  await r.answer.send(handled.response.status, toNodeHeaders(handled.response.headers), handled.payload, handled.info);
}

async function receive(d: PipelineDeps, req: IncomingMessage, res: ServerResponse, origin: string | undefined): Promise<Received> {
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
  return {
    d,
    req,
    method,
    url,
    route,
    write,
    ids,
    cred,
    idempotencyKey,
    correlationId,
    process: attribution.process,
    body,
    bodyError,
    isHealth: method === 'GET' && url.pathname === '/health',
    answer: new Answer(d.journal, req, res, ids),
    candidate: { drillId: ids.drillId, write, matches: (m) => d.routes.matches(m, method, url, correlationId) },
  };
}

/** A body that could not be read, or a request without a valid credential. */
async function refuse(r: Received): Promise<boolean> {
  const { answer, bodyError } = r;
  if (bodyError !== undefined) {
    if (bodyError instanceof BodyTooLargeError) {
      await answer.json(413, { error: 'body-too-large' }, { outcome: 'failed', reason: 'body-too-large' }, { connection: 'close' });
    } else await answer.drop({ outcome: 'cancelled', reason: 'client-gone' });
    return true;
  }
  if (r.isHealth || r.cred.allowed) return false;
  // RFC 6750 §3: a refused bearer token is answered with WWW-Authenticate.
  await answer.json(
    401,
    { error: 'unauthorized' },
    { outcome: 'denied', reason: denialReason(r.cred) },
    { 'www-authenticate': 'Bearer error="invalid_token"' },
  );
  return true;
}

/** The `sent` gate, then a status fault: both before the handler, so nothing is committed. */
async function beforeHandler(r: Received): Promise<boolean> {
  if (r.isHealth) return false;
  const { answer, d } = r;
  const gate = d.gates.take('sent', r.candidate);
  if (gate) {
    const action = await hold(d, gate, r.ids, hitOf(r, gate));
    if (action === 'fail') return answered(answer.json(503, { error: 'unavailable' }, { outcome: 'failed', reason: 'gate:fail' }));
    if (action === 'drop') return answered(answer.drop({ outcome: 'failed', reason: 'gate:drop' }));
    if (action === 'closed') return answered(answer.drop({ outcome: 'cancelled', reason: 'remote-closed' }));
  }
  const fault = d.faults.take('status', r.candidate);
  if (fault) return answered(answer.json(fault.status ?? 503, { error: 'injected-fault' }, { outcome: 'failed', reason: 'fault:status' }));
  return false;
}

/** The handlers (msw's getResponse), with the request's state attached; null when the handler threw (answered 500). */
async function runHandler(r: Received): Promise<Handled | null> {
  const { d, ids, cred } = r;
  const state = new RequestState(
    {
      seq: ids.seq,
      drillId: ids.drillId,
      sessionId: ids.sessionId,
      credential: cred.credential,
      idempotencyKey: r.idempotencyKey,
      correlationId: r.correlationId,
      process: r.process,
      jobDurationMs: cred.session?.jobDurationMs ?? d.jobDurationMs,
    },
    d.journal,
    d.effects,
    d.jobs,
  );
  const request = toFetchRequest(r.req, r.body, r.url);
  attachContext(request, state);
  let response: Response;
  try {
    response = (await getResponse(d.handlers, request, { baseUrl: d.baseUrl })) ?? Response.json({ error: 'not-found', route: r.route }, { status: 404 });
  } catch {
    // The handler's error message could echo a body value, so it is not journalled.
    await r.answer.json(500, { error: 'handler-error' }, { outcome: 'failed', reason: 'handler-error' });
    return null;
  }
  const payload = Buffer.from(await response.arrayBuffer());
  return { response, payload, state, info: { outcome: decideOutcome(r.write, response.status, state), effectId: state.effectId, jobId: state.jobId } };
}

/** After a success, the `confirmed` gate; then the delay and drop-after-commit faults. The effect is committed whatever happens now; only the answer changes. */
async function afterHandler(r: Received, { response, info, state }: Handled): Promise<boolean> {
  if (r.isHealth) return false;
  const { answer, d } = r;
  const succeeded = info.outcome !== 'failed' && info.outcome !== 'denied';
  if (succeeded) {
    const gate = d.gates.take('confirmed', r.candidate);
    if (gate) {
      const action = await hold(d, gate, r.ids, hitOf(r, gate, { effectId: state.effectId, status: response.status }));
      if (action === 'fail') return answered(answer.json(503, { error: 'unavailable' }, { ...info, reason: 'gate:fail' }));
      if (action === 'drop') return answered(answer.drop({ ...info, reason: 'gate:drop' }));
      if (action === 'closed') return answered(answer.drop({ ...info, reason: 'remote-closed' }));
    }
  }
  const delay = d.faults.take('delay', r.candidate);
  if (delay) {
    try {
      await sleep(delay.ms ?? 1000, undefined, { signal: d.closing });
    } catch {
      return answered(answer.drop({ ...info, reason: 'remote-closed' }));
    }
  }
  if (succeeded && d.faults.take('drop-after-commit', r.candidate)) return answered(answer.drop({ ...info, reason: 'fault:drop-after-commit' }));
  return false;
}

/** Waits for an answer a stage gave, and says the request ends there. */
async function answered(answer: Promise<void>): Promise<true> {
  await answer;
  return true;
}

function hitOf(r: Received, gate: ArmedGate, extra: Partial<GateHit> = {}): GateHit {
  return {
    gateId: gate.id,
    point: gate.point,
    t: monoNow(),
    seq: r.ids.seq,
    drillId: r.ids.drillId,
    method: r.method,
    path: r.url.pathname,
    route: r.route,
    idempotencyKey: r.idempotencyKey,
    correlationId: r.correlationId,
    process: r.process,
    ...extra,
  };
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
