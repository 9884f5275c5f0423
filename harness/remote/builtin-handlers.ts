import { http, HttpResponse, type RequestHandler } from 'msw';
import { remoteContext } from './request-context.js';
import type { RouteSpec } from './routes.js';

/** The writes among the built-in routes (`POST /jobs/:id/cancel` is a cancellation, not a write). */
export const BUILTIN_WRITES: readonly RouteSpec[] = [
  { method: 'POST', path: '/actions' },
  { method: 'POST', path: '/jobs' },
];

/** The built-in fake API (README.md) as msw handlers; auth, journal, gates and faults are the remote's job. */
export function builtinHandlers(): RequestHandler[] {
  return [
    http.get('/health', () => HttpResponse.json({ ok: true })),

    http.get('/whoami', ({ request }) => {
      const ctx = remoteContext(request);
      return HttpResponse.json({ session: ctx.sessionId ?? null, drill: ctx.drillId ?? null, credential: ctx.credential });
    }),

    http.post('/actions', async ({ request }) => {
      const body = await readJson(request);
      if (!isRecord(body) || typeof body.op !== 'string' || typeof body.target !== 'string') {
        return badBody('expected JSON {"op": string, "target": string}');
      }
      const result = remoteContext(request).commit({ kind: 'action', op: body.op, target: body.target });
      if (result.status === 'conflict') return keyReused(result.effect.id);
      return HttpResponse.json({ id: result.effect.id }, { status: result.status === 'created' ? 201 : 200 });
    }),

    http.post('/jobs', async ({ request }) => {
      const body = await readJson(request);
      if (!isRecord(body) || typeof body.op !== 'string') return badBody('expected JSON {"op": string}');
      const result = remoteContext(request).startJob(body.op);
      if ('conflict' in result) return keyReused(result.jobId);
      const { job, replayed } = result;
      return HttpResponse.json({ id: job.id, status: job.status }, { status: replayed ? 200 : 202 });
    }),

    http.get('/jobs/:id', ({ request, params }) => {
      const job = remoteContext(request).job(String(params.id));
      if (!job) return HttpResponse.json({ error: 'not-found' }, { status: 404 });
      return HttpResponse.json({ id: job.id, op: job.op, status: job.status });
    }),

    http.post('/jobs/:id/cancel', ({ request, params }) => {
      const job = remoteContext(request).cancelJob(String(params.id));
      if (!job) return HttpResponse.json({ error: 'not-found' }, { status: 404 });
      // Cancelling a finished job is a conflict; cancelling a cancelled one is a no-op.
      const status = job.status === 'completed' ? 409 : 200;
      return HttpResponse.json({ id: job.id, status: job.status }, { status });
    }),
  ];
}

async function readJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return undefined;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function badBody(message: string): Response {
  return HttpResponse.json({ error: 'bad-body', message }, { status: 400 });
}

function keyReused(id: string): Response {
  return HttpResponse.json({ error: 'idempotency-key-reused', message: 'this Idempotency-Key was used for another operation', id }, { status: 422 });
}
