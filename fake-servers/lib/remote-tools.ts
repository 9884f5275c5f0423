/**
 * The two tools that talk to the drill remote: `write` (POST /actions) and `start-job`
 * (POST /jobs). Each starts its request first thing in the handler, before any await, like
 * spawn-helper starts its child: a call that reached the server is acted on even if its
 * input ends right after.
 */
import { type McpServer, z } from './sdk.js';
import { CORRELATION_META_KEY } from '../../harness/shared/protocol.js';
import type { ActivityLog } from './activity-log.js';
import type { JobTracker } from './jobs.js';
import { describeFailure, type RemoteAnswer, type RemoteHttp } from './remote-http.js';
import { idempotencyKey, postAction, postJob, type WritePolicy } from './remote-writes.js';

export const REMOTE_TOOL_NAMES = ['write', 'start-job'] as const;

export interface RemoteToolContext {
  http: RemoteHttp;
  jobs: JobTracker;
  writePolicy: WritePolicy;
  /** The server's own record of its actions (activity-log.ts). */
  activity: ActivityLog;
  /** True once the server lost its input: it starts no new write after that. */
  isStopping(): boolean;
  beforeCall?(tool: string): void;
}

type ToolAnswer = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

function ok(text: string): ToolAnswer {
  return { content: [{ type: 'text', text }] };
}

function toolError(text: string): ToolAnswer {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The drill client's correlation id, which the SDK hands to handlers as `extra._meta`. */
function correlationIdOf(extra: { _meta?: Record<string, unknown> }): string | undefined {
  const value = extra._meta?.[CORRELATION_META_KEY];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

async function answerWith(pending: Promise<RemoteAnswer>, what: string, prefix: string): Promise<ToolAnswer> {
  try {
    const answer = await pending;
    const id = (answer.body as { id?: unknown } | null)?.id;
    if (answer.status >= 300 || typeof id !== 'string') return toolError(`${what} failed: ${describeFailure(answer)}`);
    return ok(`${prefix} ${id}`);
  } catch (error) {
    return toolError(`${what} failed: ${describeFailure(error)}`);
  }
}

const REFUSED = 'the server lost its client and starts no new write';

export function registerRemoteTools(server: McpServer, ctx: RemoteToolContext): void {
  server.registerTool(
    'write',
    {
      description: 'POST /actions on the drill remote; answers "effect <id>".',
      inputSchema: { op: z.string(), target: z.string() },
    },
    async ({ op, target }, extra) => {
      if (ctx.isStopping()) return toolError(REFUSED);
      // No await before this line: the request is on its way whatever happens next.
      const correlationId = correlationIdOf(extra);
      const key = idempotencyKey(correlationId, 'action', op, target);
      const pending = ctx.activity.around({ key, operation: op, target }, () => postAction(ctx.http, ctx.writePolicy, { op, target }, correlationId));
      ctx.beforeCall?.('write');
      return answerWith(pending, 'write', 'effect');
    },
  );

  server.registerTool(
    'start-job',
    {
      description: 'POST /jobs on the drill remote (a long-running job); answers "job <id>".',
      inputSchema: { op: z.string() },
    },
    async ({ op }, extra) => {
      if (ctx.isStopping()) return toolError(REFUSED);
      const correlationId = correlationIdOf(extra);
      const key = idempotencyKey(correlationId, 'job', op);
      const pending = ctx.activity.around({ key, operation: op, target: 'job' }, () => postJob(ctx.http, ctx.jobs, op, correlationId));
      ctx.beforeCall?.('start-job');
      return answerWith(pending, 'start-job', 'job');
    },
  );
}
