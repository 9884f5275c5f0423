import type { CommitResult } from './effects-store.js';
import type { Job } from './types.js';
import type { CredentialKind, ProcIdentity } from './types.js';

/**
 * What a handler may know and do about the request it answers. The remote attaches one to
 * every Request it passes to msw; msw hands resolvers that same Request object
 * (RequestHandler.run passes `args.request` on, it clones only for logging), so a WeakMap
 * keyed by the Request finds it.
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
   * Commits an effect in the remote's store and journals it at once. Idempotent per drill:
   * a second commit with the same Idempotency-Key returns the first effect as `replayed`
   * (or `conflict` when the key was used for another op or target). `options.key` names the
   * key instead (a resource name, an object key: the API is idempotent by it, whatever the
   * headers), and the journal says the write was keyed by name; on a replay the handler
   * chooses its answer (the first object again, or 409 as Kubernetes does).
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
 * One map per process, kept on globalThis under a registered symbol: the bundled CLI
 * (dist/bin/) holds its own copy of this module, and a user's handlers import
 * `mcp-crash-drill/remote` (dist/harness/), another copy. Both must see the same contexts.
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
