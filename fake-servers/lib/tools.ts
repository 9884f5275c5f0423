/**
 * The four tools every fake server exposes, so one scenario can target any of them.
 * Input shapes are zod 4 raw shapes: SDK 1.32.2's registerTool accepts `ZodRawShapeCompat`,
 * a record of zod v3 or v4 schemas (server/zod-compat.d.ts).
 */
import { type McpServer, z } from './sdk.js';
import type { TimerRegistry } from './timers.js';

export const FAKE_TOOL_NAMES = ['echo', 'spawn-helper', 'slow', 'subscribe'] as const;
export const SUBSCRIPTION_TICK_MS = 1000;

export interface ToolContext {
  /**
   * Starts one helper and returns its pid (or a promise of it). Called first thing in the
   * handler, before any await, so the child exists as soon as the call was dispatched.
   */
  spawnHelper(): number | Promise<number>;
  timers: TimerRegistry;
  /** Runs synchronously at the start of every tool call (stdout-noise prints from here). */
  beforeCall?(tool: string): void;
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

export function registerFakeTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'echo',
    {
      description: 'Answers with the text it was given.',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text: value }) => {
      ctx.beforeCall?.('echo');
      return text(value);
    },
  );

  server.registerTool('spawn-helper', { description: 'Starts one long-lived helper process and answers "helper <pid>".', inputSchema: {} }, async () => {
    const pid = ctx.spawnHelper(); // synchronous spawn: no await before this line
    ctx.beforeCall?.('spawn-helper');
    return text(`helper ${await pid}`);
  });

  server.registerTool(
    'slow',
    {
      description: 'Answers "done" after `ms` milliseconds (a call to kill in flight).',
      inputSchema: { ms: z.number().int().min(0) },
    },
    async ({ ms }) => {
      ctx.beforeCall?.('slow');
      await ctx.timers.sleep(ms);
      return text('done');
    },
  );

  server.registerTool('subscribe', { description: 'Starts a live interval timer that ticks until shutdown.', inputSchema: {} }, async () => {
    ctx.beforeCall?.('subscribe');
    // The tick does nothing: what matters is the live handle it keeps in the event loop.
    ctx.timers.interval(() => {}, SUBSCRIPTION_TICK_MS);
    return text('subscribed');
  });
}
