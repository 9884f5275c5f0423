import type { CommitResult } from './effects-store.js';
import type { Job } from './types.js';
import type { CredentialKind, ProcIdentity } from './types.js';

/**
 * What a handler may know and do about its request, found by a WeakMap keyed by the Request: msw
 * hands resolvers the same object (RequestHandler.run passes `args.request` on).
 */
export interface RemoteRequestContext {
  readonly seq: number;
  readonly drillId?: string;
  readonly sessionId?: string;
  readonly credential: CredentialKind;
  readonly idempotencyKey?: string;
  readonly correlationId?: string;
  readonly process?: ProcIdentity;
  /**
   * Commits an effect and journals it at once; a second commit with the same key is `replayed`
   * (`conflict` for another op or target). With `options.key` the handler answers a replay (as Kubernetes answers 409).
   */
  commit(input: { kind?: string; op: string; target?: string }, options?: { key?: string }): CommitResult;
  /** Starts a job (an effect of kind `job`) that completes after the session's duration. */
  startJob(op: string): { job: Job; replayed: boolean } | { conflict: true; jobId: string };
  /** A job of this request's drill, or undefined. */
  job(jobId: string): Job | undefined;
  /** Cancels a job of this request's drill; returns it as it is afterwards. */
  cancelJob(jobId: string): Job | undefined;
}

/**
 * One map per process on globalThis: the bundled CLI (dist/bin/) and a user's handlers importing
 * `mcp-crash-drill/remote` (dist/harness/) hold two copies of this module.
 */
const CONTEXTS_KEY = Symbol.for('mcp-crash-drill/remote-request-contexts');
const shared = globalThis as unknown as Record<symbol, WeakMap<Request, RemoteRequestContext> | undefined>;
const contexts: WeakMap<Request, RemoteRequestContext> = (shared[CONTEXTS_KEY] ??= new WeakMap());

export function attachContext(request: Request, ctx: RemoteRequestContext): void {
  contexts.set(request, ctx);
}

/** The remote's context for a request; throws when the request did not come through a remote. */
export function remoteContext(request: Request): RemoteRequestContext {
  const ctx = contexts.get(request);
  if (!ctx) throw new Error('remoteContext(): this request was not received by a drill remote');
  return ctx;
}
