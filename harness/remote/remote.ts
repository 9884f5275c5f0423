import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestHandler } from 'msw';
import { monoNow } from '../util/clock.js';
import { Attributor, type Attribution, type CandidateSource } from './attribution/attributor.js';
import { BUILTIN_WRITES, builtinHandlers } from './builtin-handlers.js';
import { credentialId, Credentials } from './credentials.js';
import { EffectsStore } from './effects-store.js';
import { RemoteError } from './errors.js';
import { ActiveFaults, type Fault } from './faults.js';
import { ArmedGates, type Gate, type GateSpec } from './gates.js';
import { JobsStore } from './jobs-store.js';
import { Journal } from './journal.js';
import { foldRequests } from './journal-fold.js';
import { handleRequest, type PipelineDeps } from './pipeline.js';
import { RouteTable, type RouteSpec } from './routes.js';
import type { InterceptProxy, RefusedRequest } from './proxy/intercept-proxy.js';
import type { RunCa } from './tls/run-ca.js';
import type { Effect, FaultSpec, Job, JournalEvent, JournalFilter, RequestRecord } from './types.js';

export interface RemoteOptions {
  /** User API handlers (msw 2). They are tried before the built-in API, so they may shadow it. */
  handlers?: RequestHandler[];
  /** Which of the user's routes are writes (the built-in writes are always included). */
  writes?: RouteSpec[];
  /** How long a job runs before it completes (default 1000 ms); per session overridable. */
  jobDurationMs?: number;
  /** The run's CA: the remote also serves loopback HTTPS (`httpsUrl`) and intercept proxies (`proxyFor`). */
  ca?: RunCa;
}

export interface SessionOptions {
  jobDurationMs?: number;
}

/** Typed 'journal' listeners (declaration merging with the class below). */
export interface DrillRemote {
  on(event: 'journal', listener: (event: JournalEvent) => void): this;
  once(event: 'journal', listener: (event: JournalEvent) => void): this;
  off(event: 'journal', listener: (event: JournalEvent) => void): this;
}

/** How long close() waits for requests that are still being answered. */
const CLOSE_GRACE_MS = 1000;

/** The drill remote: a loopback HTTP credential broker and fake API. Emits `'journal'` with every JournalEvent, synchronously, before the remote acts on it. */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface above only types the class's own EventEmitter methods
export class DrillRemote extends EventEmitter {
  readonly url: string;
  readonly port: number;
  /** `https://127.0.0.1:<port>` once the remote serves HTTPS (createRemote({ ca }), enableHttps). */
  httpsUrl?: string;
  ca?: RunCa;
  private httpsReady?: Promise<void>;
  private readonly extraServers: Array<Server | HttpsServer> = [];
  private readonly proxies = new Map<string, Promise<InterceptProxy>>();
  private readonly deps: PipelineDeps;
  private readonly journalLog: Journal;
  private readonly credentials = new Credentials();
  private readonly attributor: Attributor;
  private readonly gates = new ArmedGates();
  private readonly faults = new ActiveFaults();
  private readonly effectsStore = new EffectsStore();
  private readonly jobsStore: JobsStore;
  private readonly closing = new AbortController();
  private readonly inflight = new Set<Promise<void>>();
  private closed?: Promise<void>;

  /** Use createRemote(); the server must already listen. */
  constructor(
    private readonly server: Server,
    options: RemoteOptions,
  ) {
    super();
    this.port = (server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    this.journalLog = new Journal(this);
    this.attributor = new Attributor(this.port);
    this.jobsStore = new JobsStore((job, status, seq) => {
      this.journalLog.append({ kind: 'job', t: job.settledT ?? monoNow(), seq, drillId: job.drillId, sessionId: job.sessionId, jobId: job.id, status });
    });
    const handlers = [...(options.handlers ?? []), ...builtinHandlers()];
    const deps: PipelineDeps = {
      journal: this.journalLog,
      credentials: this.credentials,
      attributor: this.attributor,
      routes: new RouteTable(handlers, [...BUILTIN_WRITES, ...(options.writes ?? [])], this.url),
      gates: this.gates,
      faults: this.faults,
      effects: this.effectsStore,
      jobs: this.jobsStore,
      handlers,
      baseUrl: this.url,
      jobDurationMs: options.jobDurationMs ?? 1000,
      closing: this.closing.signal,
    };
    this.deps = deps;
    this.serve(server, null);
  }

  /** Serves a listener: each connection attributed at accept time, while the client surely still lives; `origin`: the host an intercept proxy stands in for. */
  private serve(server: Server | HttpsServer, origin: string | null): void {
    this.attributeConnections(server);
    if (server !== this.server) this.extraServers.push(server);
    server.on('request', (req, res) => {
      const p = handleRequest(this.deps, req, res, origin ?? undefined).catch(() => {
        if (!res.headersSent) res.destroy();
      });
      this.inflight.add(p);
      void p.finally(() => this.inflight.delete(p));
    });
  }

  /** Attributes each connection a listener accepts, at once (the intercept proxy's own listener is served by proxy-chain). */
  private attributeConnections(server: Server | HttpsServer): void {
    server.on('connection', (socket: Socket) => void this.attributor.attribute(socket));
  }

  /** Serves HTTPS too, once, with the run's CA; turned on by the first scenario with a remote: section. */
  enableHttps(ca: RunCa): Promise<void> {
    if (this.closed) return Promise.reject(new RemoteError('REMOTE_CLOSED', 'enableHttps(): the remote is closed'));
    this.httpsReady ??= (async () => {
      const https = createHttpsServer({ key: ca.loopback.key, cert: ca.loopback.cert, keepAliveTimeout: 5000 });
      await listenLoopback(https);
      this.ca = ca;
      this.httpsUrl = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
      this.serve(https, null);
    })();
    return this.httpsReady;
  }

  /** The intercept proxy for these origins (harness/preload/origins.ts), shared by drills that list the same ones. */
  proxyFor(origins: readonly string[]): Promise<InterceptProxy> {
    const ca = this.ca;
    if (!ca) return Promise.reject(new RemoteError('REMOTE_BAD_OPTION', 'proxyFor(): this remote has no CA (createRemote({ ca }))'));
    if (this.closed) return Promise.reject(new RemoteError('REMOTE_CLOSED', 'proxyFor(): the remote is closed'));
    const key = [...origins].sort().join(' ');
    let proxy = this.proxies.get(key);
    if (!proxy) {
      proxy = import('./proxy/intercept-proxy.js').then(({ InterceptProxy }) =>
        InterceptProxy.start(origins, ca, {
          attribute: (server) => this.attributeConnections(server),
          serve: (server, origin) => this.serve(server, origin),
          refused: (r) => this.refused(r),
        }),
      );
      this.proxies.set(key, proxy);
    }
    return proxy;
  }

  /** A proxy request for a destination outside the drill: journalled, tied to the drill of its sender. */
  private refused(request: RefusedRequest): void {
    void this.attributor.attribute(request.socket).then((attribution) => {
      this.journalLog.append({
        kind: 'outside',
        t: monoNow(),
        drillId: attribution.drillId,
        method: request.method,
        host: request.host,
        port: request.port,
        process: attribution.process,
        attribution: attribution.method,
        processDrillId: attribution.drillId,
      });
    });
  }

  /** The long-lived API key: accepted as a bearer, tied to no session, not covered by revoke(). */
  get apiKey(): string {
    return this.credentials.apiKey;
  }

  /** A drill's own long-lived API key ({{remote.apiKey}}): like apiKey, but its requests are the drill's. */
  apiKeyFor(drillId: string): string {
    return this.credentials.apiKeyFor(drillId);
  }

  openSession(drillId: string, options: SessionOptions = {}): { sessionId: string; token: string } {
    const s = this.credentials.open(drillId, options.jobDurationMs);
    this.journalLog.append({ kind: 'session-opened', t: monoNow(), drillId, sessionId: s.sessionId, credentialId: credentialId(s.token) });
    return { sessionId: s.sessionId, token: s.token };
  }

  /** From now on the session's token gets 401 on every route. Revoking twice keeps the first time. */
  revoke(sessionId: string, operator?: string): { t: number } {
    const s = this.credentials.get(sessionId);
    if (!s) throw new RemoteError('REMOTE_UNKNOWN_SESSION', `revoke(): no session ${sessionId}`);
    if (s.revokedT !== undefined) return { t: s.revokedT };
    s.revokedT = monoNow();
    s.revokedBy = operator;
    this.journalLog.append({ kind: 'revoked', t: s.revokedT, drillId: s.drillId, sessionId, operator });
    return { t: s.revokedT };
  }

  /** Issues a new API key (the drill's own with a drill id); the old one is denied from now on. Returns the new key. */
  rotateApiKey(drillId?: string): string {
    const { previous, next } = this.credentials.rotateApiKey(drillId);
    this.journalLog.append({ kind: 'api-key-rotated', t: monoNow(), drillId, credentialId: credentialId(next), previousCredentialId: credentialId(previous) });
    return next;
  }

  /** Pids to search first when attributing a connection, whose requests belong to this drill; undefined removes. */
  setCandidatePids(drillId: string, source: CandidateSource | undefined): void {
    this.attributor.setCandidates(drillId, source);
  }

  /** A connection relayed from a drill's loopback-only network (harness/drill/network/), with the sender the relay named inside (attribution/relayed.ts). */
  relayedConnection(outbound: Socket, attribution: Attribution): void {
    this.attributor.relayed.add(outbound, attribution);
  }

  arm(spec: GateSpec): Gate {
    if (this.closed) throw new RemoteError('REMOTE_CLOSED', 'arm(): the remote is closed');
    if (spec.point !== 'sent' && spec.point !== 'confirmed') {
      throw new RemoteError('REMOTE_BAD_OPTION', `arm(): point must be 'sent' or 'confirmed', got ${String(spec.point)}`);
    }
    return this.gates.arm(spec);
  }

  setFault(drillId: string, spec: FaultSpec): Fault {
    const kinds = ['drop-after-commit', 'delay', 'status'];
    if (!kinds.includes(spec.kind)) {
      throw new RemoteError('REMOTE_BAD_OPTION', `setFault(): kind must be one of ${kinds.join(', ')}, got ${String(spec.kind)}`);
    }
    if (spec.status !== undefined && (spec.status < 100 || spec.status > 599)) {
      throw new RemoteError('REMOTE_BAD_OPTION', `setFault(): status must be an HTTP status, got ${spec.status}`);
    }
    return this.faults.add(drillId, spec);
  }

  journal(filter?: JournalFilter): JournalEvent[] {
    return this.journalLog.list(filter);
  }

  /** One folded record per request (see foldRequests). */
  requests(filter: Pick<JournalFilter, 'drillId' | 'sessionId'> = {}): RequestRecord[] {
    const records = foldRequests(this.journalLog.list());
    return records.filter(
      (r) => (filter.drillId === undefined || r.drillId === filter.drillId) && (filter.sessionId === undefined || r.sessionId === filter.sessionId),
    );
  }

  effects(drillId?: string): Effect[] {
    return this.effectsStore.list(drillId);
  }

  jobs(drillId?: string): Job[] {
    return this.jobsStore.list(drillId);
  }

  /** Closes every socket (held gates included), stops job timers; idempotent. */
  close(): Promise<void> {
    this.closed ??= this.doClose();
    return this.closed;
  }

  private async doClose(): Promise<void> {
    this.closing.abort();
    this.gates.closeAll();
    this.jobsStore.close();
    const proxies = await Promise.allSettled(this.proxies.values());
    await Promise.all(proxies.map((p) => (p.status === 'fulfilled' ? p.value.close() : undefined)));
    const servers = [this.server, ...this.extraServers];
    const stopped = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const server of servers) server.closeAllConnections();
    await Promise.all(stopped);
    // Let held requests write their final `outcome` events, but never wait on a hung handler.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_GRACE_MS);
    });
    await Promise.race([Promise.allSettled([...this.inflight]), grace]);
    clearTimeout(timer);
  }
}

export async function createRemote(options: RemoteOptions = {}): Promise<DrillRemote> {
  if (options.jobDurationMs !== undefined && !(options.jobDurationMs >= 0)) {
    throw new RemoteError('REMOTE_BAD_OPTION', `createRemote(): jobDurationMs must be >= 0, got ${options.jobDurationMs}`);
  }
  const server = createServer({ keepAliveTimeout: 5000 });
  await listenLoopback(server);
  const remote = new DrillRemote(server, options);
  if (options.ca) await remote.enableHttps(options.ca);
  return remote;
}

function listenLoopback(server: Server | HttpsServer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
