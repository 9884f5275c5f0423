/**
 * The two writes a fake server makes on the drill remote: `POST /actions` and `POST /jobs`,
 * keyed for idempotency the way a careful server would, or carelessly for the mutants.
 */
import { createHash } from 'node:crypto';
import type { JobTracker } from './jobs.js';
import type { RemoteAnswer, RemoteHttp } from './remote-http.js';

/**
 * - `keyed`: `Idempotency-Key` on every write (well-behaved).
 * - `keyless`: no `Idempotency-Key` at all (keyless-writer).
 * - `retry-without-key`: keyed, but a failed first attempt (network error or 5xx) is retried
 *   once without the key (retries-without-key): a lost answer turns into a second effect.
 */
export type WritePolicy = 'keyed' | 'keyless' | 'retry-without-key';

/**
 * The key of one logical operation: the drill client's correlation id when the call carried
 * one (so the remote ties the effect to the call), else a hash of the operation itself, so a
 * retry of the same logical write still dedups.
 */
export function idempotencyKey(correlationId: string | undefined, ...parts: string[]): string {
  if (correlationId) return correlationId;
  const digest = createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
  return `fake-${digest}`;
}

function writeHeaders(key: string | undefined, correlationId: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['Idempotency-Key'] = key;
  if (correlationId) headers['X-Correlation-Id'] = correlationId;
  return headers;
}

function failed(answer: RemoteAnswer): boolean {
  return answer.status >= 500;
}

/** `POST /actions`; the first attempt's request starts before this returns. */
export function postAction(
  http: RemoteHttp,
  policy: WritePolicy,
  action: { op: string; target: string },
  correlationId: string | undefined,
): Promise<RemoteAnswer> {
  const key = policy === 'keyless' ? undefined : idempotencyKey(correlationId, 'action', action.op, action.target);
  const attempt = (withKey: string | undefined) =>
    http.request({ method: 'POST', path: '/actions', body: action, headers: writeHeaders(withKey, correlationId) });
  const first = attempt(key);
  if (policy !== 'retry-without-key') return first;
  // The careless retry: the first attempt may well have committed (its answer was lost),
  // and the second one carries nothing the remote could dedup it by.
  return http.track(
    first.then(
      (answer) => (failed(answer) ? attempt(undefined) : answer),
      () => attempt(undefined),
    ),
  );
}

/** `POST /jobs`, always keyed; a job that is running afterwards is remembered in `jobs`. */
export function postJob(http: RemoteHttp, jobs: JobTracker, op: string, correlationId: string | undefined): Promise<RemoteAnswer> {
  const key = idempotencyKey(correlationId, 'job', op);
  const answer = http.request({ method: 'POST', path: '/jobs', body: { op }, headers: writeHeaders(key, correlationId) });
  // Tracked as one exchange with the bookkeeping, so a shutdown that lets in-flight requests
  // settle also knows every job id before it cancels.
  return http.track(
    answer.then((a) => {
      const body = a.body as { id?: unknown; status?: unknown } | null;
      if (a.status < 300 && typeof body?.id === 'string' && body.status === 'running') jobs.remember(body.id);
      return a;
    }),
  );
}
