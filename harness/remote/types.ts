/** Data shapes of the drill remote: pure types, so checks and reporters need not pull in node:http or msw. */

import type { ProcIdentity } from '../observe/index.js';
import type { AttributionMethod } from './attribution/attributor.js';

/** A process named the only safe way: pid plus start time; the one identity type (harness/observe/identity.ts). */
export type { ProcIdentity };

/** Which credential a request carried. `unknown`: a bearer token the remote never issued. */
export type CredentialKind = 'session' | 'api-key' | 'unknown' | 'none';

/** What became of a request (README.md); `held` only in a folded record until the outcome is known. */
export type Outcome = 'committed' | 'replayed' | 'denied' | 'failed' | 'cancelled' | 'ok' | 'held';

export type GatePoint = 'sent' | 'confirmed';
export type GateAction = 'proceed' | 'fail' | 'drop';

/** How the sending process was found (declared with the attribution, harness/remote/attribution/attributor.ts). */
export type { AttributionMethod };

interface EventBase {
  /** Position in the journal, in append order over all kinds. */
  n: number;
  /** monoNow() when the event happened. */
  t: number;
  drillId?: string;
  /** Present on every event of a request that carried a session token, and on session events. */
  sessionId?: string;
}

/** A request has arrived (headers and body read); always the first event of its `seq`. */
export interface RequestEvent extends EventBase {
  kind: 'request';
  seq: number;
  credential: CredentialKind;
  /** sha256(token) cut to 8 hex chars: tells credentials apart without revealing them. */
  credentialId?: string;
  method: string;
  /** URL path without the query string, known credentials redacted. */
  path: string;
  /** The matching handler's template, e.g. `POST /jobs/:id/cancel`, else `METHOD path`. */
  route: string;
  write: boolean;
  idempotencyKey?: string;
  /** X-Correlation-Id, or the Idempotency-Key when there is no such header. */
  correlationId?: string;
  process?: ProcIdentity;
  attribution: AttributionMethod;
  /** The drill the sending process belongs to (candidate pids or CRASH_DRILL_RUN), if known. */
  processDrillId?: string;
  /** The listed origin an intercept proxy took it for (`remote.intercept`); absent for the remote's own listeners. */
  origin?: string;
}

/** The intercept proxy refused a destination outside the drill; nothing was contacted. */
export interface OutsideEvent extends EventBase {
  kind: 'outside';
  /** `CONNECT`, or the method of a plain http request. */
  method: string;
  host: string;
  port: number;
  process?: ProcIdentity;
  attribution: AttributionMethod;
  processDrillId?: string;
}

/** A gate holds the request (`sent`: before the handler, `confirmed`: before the answer). */
export interface HoldEvent extends EventBase {
  kind: 'hold';
  seq: number;
  point: GatePoint;
  gateId: string;
}

export interface ReleaseEvent extends EventBase {
  kind: 'release';
  seq: number;
  point: GatePoint;
  gateId: string;
  action: GateAction | 'closed';
}

/** A handler committed (or replayed) an effect; written at the moment of the commit. */
export interface CommitEvent extends EventBase {
  kind: 'commit';
  seq: number;
  effectId: string;
  jobId?: string;
  replayed: boolean;
  /** `name`: the handler named the key that makes the write idempotent (its value is not journalled). */
  keyedBy?: 'name';
}

/** The answer the remote is about to give; always written before the first byte is sent. */
export interface OutcomeEvent extends EventBase {
  kind: 'outcome';
  seq: number;
  outcome: Exclude<Outcome, 'held'>;
  /** HTTP status about to be sent; 0 when no answer will be sent at all. */
  status: number;
  effectId?: string;
  jobId?: string;
  /** Why the remote deviated from the handler's answer, e.g. `gate:fail`, `fault:status`. */
  reason?: string;
}

/** Whether the answer reached the socket (`false`: dropped, or the client was gone). */
export interface DeliveryEvent extends EventBase {
  kind: 'delivery';
  seq: number;
  delivered: boolean;
  reason?: string;
}

/** The client's connection closed while the remote still held the request (before its outcome). */
export interface DisconnectEvent extends EventBase {
  kind: 'disconnect';
  seq: number;
}

export interface SessionOpenedEvent extends EventBase {
  kind: 'session-opened';
  credentialId: string;
}

export interface RevokedEvent extends EventBase {
  kind: 'revoked';
  operator?: string;
}

export interface ApiKeyRotatedEvent extends EventBase {
  kind: 'api-key-rotated';
  credentialId: string;
  previousCredentialId: string;
}

export interface JobEvent extends EventBase {
  kind: 'job';
  jobId: string;
  status: JobStatus;
  /** The request that changed the status, if any (a timer completes jobs on its own). */
  seq?: number;
}

export type RequestScopedEvent = RequestEvent | HoldEvent | ReleaseEvent | CommitEvent | OutcomeEvent | DeliveryEvent | DisconnectEvent;

export type JournalEvent = RequestScopedEvent | SessionOpenedEvent | RevokedEvent | ApiKeyRotatedEvent | JobEvent | OutsideEvent;

export type JournalEventKind = JournalEvent['kind'];

/** One request folded from its events: the shape checks usually want. */
export interface RequestRecord {
  seq: number;
  t: number;
  drillId?: string;
  sessionId?: string;
  credential: CredentialKind;
  credentialId?: string;
  method: string;
  path: string;
  route: string;
  write: boolean;
  idempotencyKey?: string;
  correlationId?: string;
  process?: ProcIdentity;
  attribution: AttributionMethod;
  processDrillId?: string;
  /** The listed origin an intercept proxy took it for. */
  origin?: string;
  /** `held` until the outcome event is written (a gate, a delay or the handler still has it). */
  outcome: Outcome;
  /** `name` when the handler committed it under a key it named (a natural idempotency key). */
  keyedBy?: 'name';
  status: number;
  effectId?: string;
  jobId?: string;
  reason?: string;
  delivered?: boolean;
  /** When the client's connection closed while the remote still held the request. */
  disconnectedT?: number;
  holds: Array<{ point: GatePoint; gateId: string; t: number; releasedT?: number; action?: ReleaseEvent['action'] }>;
}

export interface JournalFilter {
  drillId?: string;
  sessionId?: string;
  kind?: JournalEventKind | JournalEventKind[];
  seq?: number;
  since?: number;
}

export interface Effect {
  id: string;
  kind: 'action' | 'job' | string;
  drillId?: string;
  sessionId?: string;
  op: string;
  target?: string;
  idempotencyKey?: string;
  /** The key its handler named (`commit(..., { key })`): the write is idempotent by it. */
  namedKey?: string;
  seq: number;
  t: number;
  /** How many later requests replayed it. */
  replays: number;
}

export type JobStatus = 'running' | 'completed' | 'cancelled';

export interface Job {
  id: string;
  drillId?: string;
  sessionId?: string;
  op: string;
  status: JobStatus;
  createdT: number;
  settledT?: number;
  durationMs: number;
  effectId: string;
}

export interface RouteMatch {
  method?: string;
  /** A concrete path (`/actions`) or a route template (`/jobs/:id`). */
  path?: string;
  correlationId?: string;
}

export interface GateHit {
  gateId: string;
  point: GatePoint;
  t: number;
  seq: number;
  drillId?: string;
  method: string;
  path: string;
  route: string;
  idempotencyKey?: string;
  correlationId?: string;
  /** Present at `confirmed` when the handler committed through the remote's effect store. */
  effectId?: string;
  /** The status the handler chose (at `confirmed`). */
  status?: number;
  process?: ProcIdentity;
}

export type FaultKind = 'drop-after-commit' | 'delay' | 'status';

export interface FaultSpec {
  match?: RouteMatch;
  kind: FaultKind;
  /** For `delay`: how long to hold the answer. */
  ms?: number;
  /** For `status`: the status to answer (default 503). */
  status?: number;
  /** How many matching requests it applies to (default 1). */
  times?: number;
}
