/**
 * The fake servers' side of the drill remote (harness/remote/README.md): node:http requests
 * with the bearer credential from the environment. Not the global fetch: its first call loads
 * undici, about 25 ms of CPU per server start, and the remote is plain HTTP on loopback (the
 * hardcoded-host server still uses fetch, which the preload must route). Every request is
 * tracked, so a shutdown can let the ones in flight settle, within a bound, before the
 * process exits.
 */
import { request as httpRequest } from 'node:http';
import { monoNow } from '../../harness/util/clock.js';

export class RemoteNotConfiguredError extends Error {
  readonly code = 'FAKE_REMOTE_NOT_CONFIGURED';
}

/** What the harness puts in every subject's environment (docs/design.md, Contracts). */
export interface RemoteEnv {
  url: string;
  token: string;
  /** The long-lived API key, only when a scenario maps `{{remote.apiKey}}` into it. */
  apiKey?: string;
}

export function readRemoteEnv(env: NodeJS.ProcessEnv = process.env): RemoteEnv | null {
  const url = env.CRASH_DRILL_REMOTE_URL;
  const token = env.CRASH_DRILL_TOKEN;
  if (!url || !token) return null;
  return { url, token, apiKey: env.CRASH_DRILL_API_KEY || undefined };
}

export interface RemoteRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Which bearer to send (default: the session token). */
  credential?: 'session' | 'api-key';
}

export interface RemoteAnswer {
  status: number;
  /** The parsed JSON body, or null when there was none or it was not JSON. */
  body: unknown;
}

export class RemoteHttp {
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(readonly env: RemoteEnv | null) {}

  /**
   * Starts the request synchronously, before returning: a tool handler that calls this first
   * thing has started its request even if the process begins to shut down on the next event.
   * Rejects on a network error (e.g. the remote dropped the connection).
   */
  request(req: RemoteRequest): Promise<RemoteAnswer> {
    const env = this.env;
    if (!env) {
      return Promise.reject(new RemoteNotConfiguredError('CRASH_DRILL_REMOTE_URL or CRASH_DRILL_TOKEN is not set'));
    }
    const bearer = req.credential === 'api-key' ? env.apiKey : env.token;
    if (!bearer) return Promise.reject(new RemoteNotConfiguredError('CRASH_DRILL_API_KEY is not set'));
    const headers: Record<string, string> = { Authorization: `Bearer ${bearer}`, ...req.headers };
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    const answer = new Promise<RemoteAnswer>((resolve, reject) => {
      const outgoing = httpRequest(new URL(req.path, env.url), { method: req.method, headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          let body: unknown = null;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: keep null, the status says enough
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
    return this.track(answer);
  }

  /** Tracks any promise that belongs to a remote exchange (e.g. a job start and its bookkeeping). */
  track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    const forget = () => this.inflight.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  get inflightCount(): number {
    return this.inflight.size;
  }

  /**
   * Waits until nothing is in flight (requests started meanwhile included) or until the
   * monotonic `deadline`, whichever comes first. Never rejects.
   */
  async settle(deadline: number): Promise<void> {
    while (this.inflight.size > 0) {
      const remaining = deadline - monoNow();
      if (remaining <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, remaining);
      });
      await Promise.race([Promise.allSettled([...this.inflight]), timeout]);
      clearTimeout(timer);
    }
  }
}

/** One line for a log or a tool error: `HTTP 503` or the network error's cause. */
export function describeFailure(failure: RemoteAnswer | unknown): string {
  if (typeof failure === 'object' && failure !== null && 'status' in failure && typeof failure.status === 'number') {
    return `HTTP ${failure.status}`;
  }
  if (failure instanceof Error) {
    const cause = (failure as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${failure.message} (${cause.message})` : failure.message;
  }
  return String(failure);
}
