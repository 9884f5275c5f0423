/**
 * The SDK 2 fake servers' tools: the shared four (echo, spawn-helper, slow, subscribe, as on
 * the SDK 1 servers: fake-servers/lib/tools.ts) and `work`, a call worth cancelling: it starts a
 * helper, reports progress every PROGRESS_EVERY_MS when the call carries a progress token, and
 * answers `done` after `ms`. What it does on a cancel is the server's one behaviour (CancelBehaviour).
 */
import { type McpServer, z } from './sdk.js';
import type { ChildTracker } from '../../lib/children.js';
import type { Log } from '../../lib/log.js';
import type { TimerRegistry } from '../../lib/timers.js';

export const PROGRESS_EVERY_MS = 100;
/** talks-after-cancel keeps reporting progress this long after the cancel. */
export const TALK_AFTER_CANCEL_MS = 600;

/**
 * - `stop`: end the helper and stop reporting at once (the spec's SHOULD; the SDK drops the answer).
 * - `keep-child`: stop reporting, but leave the helper running until the work's time is up.
 * - `keep-talking`: end the helper, but go on reporting progress for the cancelled request.
 * - `close`: take the cancel as the end of the connection: close it (the server then exits).
 */
export type CancelBehaviour = 'stop' | 'keep-child' | 'keep-talking' | 'close';

export interface Sdk2ToolContext {
  children: ChildTracker;
  timers: TimerRegistry;
  log: Log;
  onCancel: CancelBehaviour;
  closeConnection: () => void;
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

export function registerSdk2Tools(server: McpServer, ctx: Sdk2ToolContext): void {
  server.registerTool(
    'echo',
    { description: 'Answers with the text it was given.', inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } },
    async ({ text: value }) => text(value),
  );

  server.registerTool(
    'spawn-helper',
    { description: 'Starts one long-lived helper process and answers "helper <pid>".', inputSchema: z.object({}) },
    async () => text(`helper ${ctx.children.spawnHelper()}`),
  );

  server.registerTool(
    'slow',
    { description: 'Answers "done" after `ms` milliseconds.', inputSchema: z.object({ ms: z.number().int().min(0) }) },
    async ({ ms }) => {
      await ctx.timers.sleep(ms);
      return text('done');
    },
  );

  server.registerTool('subscribe', { description: 'Starts a live interval timer that ticks until shutdown.', inputSchema: z.object({}) }, async () => {
    ctx.timers.interval(() => {}, 1000);
    return text('subscribed');
  });

  server.registerTool(
    'work',
    {
      description: 'Starts a helper, reports progress, answers "done" after `ms` (default 3000).',
      inputSchema: z.object({ ms: z.number().int().min(0).optional() }),
    },
    async ({ ms }, extra) => {
      const { signal, notify, _meta } = extra.mcpReq;
      const token = _meta?.progressToken;
      const helper = ctx.children.spawnHelper(); // synchronous, before any await: the child exists once the call arrived
      let progress = 0;
      let talking = true;
      const report = setInterval(() => {
        if (talking && token !== undefined)
          void notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++progress } }).catch(() => {});
      }, PROGRESS_EVERY_MS);
      const done = new Promise<void>((resolve) => {
        const finish = setTimeout(resolve, ms ?? 3000);
        const onAbort = () => {
          ctx.log(`call ${String(extra.mcpReq.id)} cancelled: ${ctx.onCancel}`);
          if (ctx.onCancel === 'close') return ctx.closeConnection();
          if (ctx.onCancel === 'keep-child') talking = false;
          if (ctx.onCancel === 'stop' || ctx.onCancel === 'keep-talking') void ctx.children.endAll();
          if (ctx.onCancel === 'stop') {
            talking = false;
            clearTimeout(finish);
            resolve();
          }
          if (ctx.onCancel === 'keep-talking')
            setTimeout(() => {
              clearTimeout(finish);
              resolve();
            }, TALK_AFTER_CANCEL_MS);
        };
        // A cancel read right behind the call aborts the signal before this handler runs: 'abort' will not fire again.
        if (signal.aborted) onAbort();
        else signal.addEventListener('abort', onAbort, { once: true });
      });
      await done;
      clearInterval(report);
      await ctx.children.endAll();
      return text(`done (helper ${helper})`);
    },
  );
}
