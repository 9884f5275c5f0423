/** A request for a listed host turned into the same request on the drill remote, and its answer back. */
import { PreloadError } from './errors.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those fetch computes for the new connection. */
const DROPPED_REQUEST_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'expect',
]);

/** Statuses whose response must have a null body (Fetch standard, "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface ForwardTarget {
  remote: URL;
  /** CRASH_DRILL_TOKEN, added as a bearer when the request carries no Authorization. */
  token: string | undefined;
}

export function readForwardTarget(env: NodeJS.ProcessEnv): ForwardTarget {
  const raw = env.CRASH_DRILL_REMOTE_URL;
  let remote: URL | undefined;
  try {
    remote = raw ? new URL(raw) : undefined;
  } catch {
    remote = undefined;
  }
  if (!remote) {
    throw new PreloadError(
      'PRELOAD_NO_REMOTE',
      `CRASH_DRILL_REMOTE_URL is ${raw ? `not a URL: "${raw}"` : 'not set'}; the crash-drill preload will not send a listed host's request anywhere else`,
    );
  }
  return { remote, token: env.CRASH_DRILL_TOKEN || undefined };
}

export function remoteUrlFor(original: URL, remote: URL): URL {
  const base = remote.pathname.replace(/\/+$/, '');
  const url = new URL(remote.origin);
  url.pathname = `${base}${original.pathname}`;
  url.search = original.search;
  return url;
}

export async function forwardRequest(request: Request, target: ForwardTarget): Promise<{ url: URL; init: RequestInit }> {
  const original = new URL(request.url);
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (!DROPPED_REQUEST_HEADERS.has(name)) headers.append(name, value);
  });
  // The server's own credential wins: it is the one a revocation check must see (README.md).
  if (!headers.has('authorization') && target.token) headers.set('authorization', `Bearer ${target.token}`);
  headers.set('x-forwarded-host', original.host);
  headers.set('x-forwarded-proto', original.protocol.slice(0, -1));
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  // Buffered: the remote journals a request once its body arrived anyway, and no `duplex: 'half'` is needed.
  const body = hasBody ? await request.arrayBuffer() : undefined;
  return {
    url: remoteUrlFor(original, target.remote),
    init: { method: request.method, headers, body, redirect: 'manual' },
  };
}

/** The remote's answer as a fresh Response, without content-encoding: fetch decoded the body already. */
export function localResponse(answer: Response): Response {
  const headers = new Headers(answer.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  const body = NULL_BODY_STATUSES.has(answer.status) ? null : answer.body;
  return new Response(body, { status: answer.status, statusText: answer.statusText, headers });
}
