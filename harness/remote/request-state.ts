import { monoNow } from '../util/clock.js';
import type { CommitResult, EffectsStore } from './effects-store.js';
import type { JobsStore } from './jobs-store.js';
import type { Journal } from './journal.js';
import type { RemoteRequestContext } from './request-context.js';
import type { CredentialKind, Job, ProcIdentity } from './types.js';

export interface RequestStateInit {
  seq: number;
  drillId?: string;
  sessionId?: string;
  credential: CredentialKind;
  idempotencyKey?: string;
  correlationId?: string;
  process?: ProcIdentity;
  jobDurationMs: number;
}

/** One request's context as handlers see it, plus what it committed; every commit is journalled the moment it happens. */
export class RequestState implements RemoteRequestContext {
  readonly seq: number;
  readonly drillId?: string;
  readonly sessionId?: string;
  readonly credential: CredentialKind;
  readonly idempotencyKey?: string;
  readonly correlationId?: string;
  readonly process?: ProcIdentity;
  effectId?: string;
  jobId?: string;
  created = false;
  replayed = false;
  private readonly jobDurationMs: number;

  constructor(
    init: RequestStateInit,
    private readonly journal: Journal,
    private readonly effects: EffectsStore,
    private readonly jobs: JobsStore,
  ) {
    this.seq = init.seq;
    this.drillId = init.drillId;
    this.sessionId = init.sessionId;
    this.credential = init.credential;
    this.idempotencyKey = init.idempotencyKey;
    this.correlationId = init.correlationId;
    this.process = init.process;
    this.jobDurationMs = init.jobDurationMs;
  }

  commit(input: { kind?: string; op: string; target?: string }, options: { key?: string } = {}): CommitResult {
    const namedKey = options.key;
    const result = this.effects.commit({
      namedKey,
      kind: input.kind ?? 'action',
      drillId: this.drillId,
      sessionId: this.sessionId,
      op: input.op,
      target: input.target,
      idempotencyKey: this.idempotencyKey,
      seq: this.seq,
      t: monoNow(),
    });
    if (result.status === 'conflict') return result;
    this.effectId = result.effect.id;
    this.created = result.status === 'created';
    this.replayed = result.status === 'replayed';
    const isJob = result.effect.kind === 'job';
    if (isJob) this.jobId = result.effect.id;
    this.journal.append({
      kind: 'commit',
      t: monoNow(),
      seq: this.seq,
      drillId: this.drillId,
      sessionId: this.sessionId,
      effectId: result.effect.id,
      jobId: isJob ? result.effect.id : undefined,
      replayed: this.replayed,
      ...(namedKey !== undefined ? { keyedBy: 'name' as const } : {}),
    });
    return result;
  }

  startJob(op: string): { job: Job; replayed: boolean } | { conflict: true; jobId: string } {
    const result = this.commit({ kind: 'job', op });
    if (result.status === 'conflict') return { conflict: true, jobId: result.effect.id };
    const existing = this.jobs.get(result.effect.id, this.drillId);
    if (existing) return { job: { ...existing }, replayed: true };
    const job = this.jobs.start({
      id: result.effect.id,
      drillId: this.drillId,
      sessionId: this.sessionId,
      op,
      createdT: result.effect.t,
      durationMs: this.jobDurationMs,
      effectId: result.effect.id,
    });
    this.journal.append({ kind: 'job', t: monoNow(), seq: this.seq, drillId: this.drillId, sessionId: this.sessionId, jobId: job.id, status: 'running' });
    return { job: { ...job }, replayed: result.status === 'replayed' };
  }

  job(jobId: string): Job | undefined {
    const job = this.jobs.get(jobId, this.drillId);
    return job ? { ...job } : undefined;
  }

  cancelJob(jobId: string): Job | undefined {
    // The 'job' event of a cancellation is written by the store's settle listener.
    const job = this.jobs.cancel(jobId, this.drillId, this.seq);
    return job ? { ...job } : undefined;
  }
}
