/**
 * One drill's side of the drill remote: its session (and the recovery retry's), the journal
 * streamed into the evidence, the process candidates for attribution, the gates of the `sent`
 * and `confirmed` points, revocation with its probe, and the remote's state at the moments the
 * checks need it. Tokens never enter the evidence: only session ids and credential hashes.
 */
import type { Scenario, ScenarioRemote } from '../../config/index.js';
import type { RemoteJob, RemoteEffect } from '../../evidence/types.js';
import type { Gate } from '../../remote/gates.js';
import type { DrillRemote } from '../../remote/remote.js';
import type { GateHit, JournalEvent } from '../../remote/types.js';
import type { TrustFiles } from '../../remote/tls/trust-files.js';
import { parseOrigins } from '../../preload/index.js';
import { monoNow } from '../../util/clock.js';
import { createHash } from 'node:crypto';
import type { EvidenceRecorder } from './recorder.js';

export interface SessionCredentials {
  sessionId: string;
  token: string;
}

export class RemoteLink {
  readonly session: SessionCredentials;
  retrySession: SessionCredentials | null = null;
  revokedAt: number | null = null;
  private readonly listener: (event: JournalEvent) => void;
  private gate: Gate | null = null;
  /** The run's trust files, for a scenario with a remote: section (prepareTls). */
  trustFiles: TrustFiles | null = null;
  /** The intercept proxy's URL, for a scenario that lists origins (prepareTls). */
  proxyUrl: string | null = null;
  /** Journal seqs of API-key requests no drill could claim (see the listener). */
  private readonly unattributed = new Set<number>();

  constructor(
    readonly remote: DrillRemote,
    private readonly drillId: string,
    private readonly settings: ScenarioRemote,
    private readonly rec: EvidenceRecorder,
    candidates: () => number[],
  ) {
    // Every journal event of this drill, including API-key requests its processes made.
    this.listener = (event) => {
      const processDrill = 'processDrillId' in event ? event.processDrillId : undefined;
      if (event.drillId === drillId || processDrill === drillId) {
        rec.harness({ type: 'remote', entry: event }, event.t, 'remote');
        return;
      }
      // A request with the long-lived API key that no session and no process ties to any drill
      // (its sender was gone before the remote could look it up): it may be this drill's. It is
      // kept apart, so only denied-after-revocation weighs it, as a reason for unknown.
      const seq = 'seq' in event ? event.seq : undefined;
      if (event.drillId !== undefined || processDrill !== undefined || seq === undefined) return;
      if (event.kind === 'request' ? event.credential === 'api-key' : this.unattributed.has(seq)) {
        if (event.kind === 'request') this.unattributed.add(seq);
        rec.harness({ type: 'remote-unattributed', entry: event }, event.t, 'remote');
      }
    };
    remote.on('journal', this.listener);
    remote.setCandidatePids(drillId, candidates);
    this.session = this.open('drill');
    if (settings.fault) {
      const { kind, ms, status, times, match } = settings.fault;
      remote.setFault(drillId, { kind, ms, status, times, match: match ?? undefined });
    }
  }

  get url(): string {
    return this.remote.url;
  }

  get httpsUrl(): string | undefined {
    return this.remote.httpsUrl;
  }

  /**
   * Before the server starts: the run's trust files (for `{{remote.caFile}}` and the trust
   * variables; a scenario with a remote: section only) and the intercept proxy for the
   * scenario's origins (harness/remote/proxy/).
   */
  async prepareTls(scenario: Scenario, trustFiles: (() => Promise<TrustFiles>) | undefined): Promise<void> {
    if (scenario.remote.declared && trustFiles) this.trustFiles = await trustFiles();
    if (scenario.remote.intercept.length > 0 && this.remote.ca) {
      const proxy = await this.remote.proxyFor(parseOrigins(scenario.remote.intercept));
      this.proxyUrl = proxy.url;
    }
  }

  get apiKey(): string {
    return this.remote.apiKeyFor(this.drillId);
  }

  openRetrySession(): SessionCredentials {
    this.retrySession = this.open('retry');
    return this.retrySession;
  }

  /** Holds the trigger request of `sent` or `confirmed`; the trigger defaults to the drill's first write. */
  arm(point: 'sent' | 'confirmed'): Gate {
    const trigger = this.settings.trigger;
    this.gate = this.remote.arm({ drillId: this.drillId, point, match: trigger ? { method: trigger.method, path: trigger.path } : undefined });
    // A gate that is never reached rejects when the remote closes: that is expected, not an error.
    this.gate.reached.catch(() => {});
    return this.gate;
  }

  /** After the kill: the remote goes on as the scenario says (by default it commits, as a real one would). */
  releaseGate(): void {
    if (this.gate && this.gate.state === 'held') this.gate.release(this.settings.afterGate);
    else this.gate?.disarm();
    this.gate = null;
  }

  /** Revokes the drill's session and probes it with the revoked token (the safe identity probe). */
  async revoke(operator: string): Promise<void> {
    if (this.revokedAt !== null) return;
    const { t } = this.remote.revoke(this.session.sessionId, operator);
    this.revokedAt = t;
    this.rec.harness({ type: 'revoked', sessionId: this.session.sessionId, operator }, t);
    let status = 0;
    try {
      const response = await fetch(`${this.remote.url}/whoami`, { headers: { authorization: `Bearer ${this.session.token}` } });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    this.rec.harness({ type: 'probe', status, denied: status === 401 || status === 403, pid: process.pid });
  }

  rotateApiKey(): void {
    this.rec.addSecret(this.remote.rotateApiKey(this.drillId));
    this.rec.harness({ type: 'api-key-rotated' });
  }

  /** The remote's jobs and effects of this drill, as the checks need them (no bodies: op names and hashes). */
  recordState(label: 'grace-end' | 'cancel-window' | 'final'): void {
    const jobs: RemoteJob[] = this.remote.jobs(this.drillId).map((job) => ({
      id: job.id,
      sessionId: job.sessionId ?? null,
      status: job.status,
      createdT: job.createdT,
      settledT: job.settledT ?? null,
    }));
    const effects: RemoteEffect[] = this.remote.effects(this.drillId).map((effect) => ({
      id: effect.id,
      kind: effect.kind,
      sessionId: effect.sessionId ?? null,
      op: effect.op,
      // The logical operation, without putting the target (request body content) in clear.
      operation: digest(`${effect.op}\u0000${effect.target ?? ''}`),
      idempotencyKey: effect.namedKey !== undefined ? `name:${digest(effect.namedKey)}` : (effect.idempotencyKey ?? null),
      ...(effect.namedKey !== undefined ? { keyedBy: 'name' as const } : {}),
      seq: effect.seq,
      t: effect.t,
      replays: effect.replays,
    }));
    this.rec.harness({ type: 'remote-state', label, jobs, effects }, monoNow());
  }

  runningJobs(): number {
    return this.remote.jobs(this.drillId).filter((job) => job.status === 'running' && job.sessionId === this.session.sessionId).length;
  }

  /** Resolves when no job of the drill's session is running, or after `timeoutMs`. */
  async jobsSettled(timeoutMs: number): Promise<boolean> {
    if (this.runningJobs() === 0) return true;
    return new Promise((resolve) => {
      const onEvent = (event: JournalEvent) => {
        if (event.kind === 'job' && this.runningJobs() === 0) finish(true);
      };
      const timer = setTimeout(() => finish(this.runningJobs() === 0), timeoutMs);
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.remote.off('journal', onEvent);
        resolve(value);
      };
      this.remote.on('journal', onEvent);
    });
  }

  detach(): void {
    this.gate?.disarm();
    this.remote.off('journal', this.listener);
    this.remote.setCandidatePids(this.drillId, undefined);
  }

  private open(role: 'drill' | 'retry'): SessionCredentials {
    const jobDurationMs = this.settings.jobDuration ?? undefined;
    const session = this.remote.openSession(this.drillId, { jobDurationMs });
    this.rec.addSecret(session.token);
    this.rec.addSecret(this.apiKey);
    this.rec.harness({ type: 'session', role, sessionId: session.sessionId });
    return session;
  }
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

export type { GateHit };
