import type { ClientEvent } from '../../shared/protocol.js';
import type { KillPoint, Scenario } from '../../config/index.js';
import { identityKey, startTimeToMono, type DrillTracker, type ProcIdentity, type TrackedProcess } from '../../observe/index.js';
import type { PointProcess } from '../../evidence/types.js';
import { monoNow } from '../../util/clock.js';
import { ChildPick } from './child-point.js';
import type { DrillClient } from '../client/drill-client.js';
import type { RemoteLink } from './remote-link.js';

export type PointOutcome = { reached: true; detail: string; process?: PointProcess } | { reached: false; reason: string };

export interface PointContext {
  client: DrillClient;
  tracker: DrillTracker;
  scenario: Scenario;
  server: () => ProcIdentity | null;
  /** Resolves when the server exits, so a point does not wait out its timeout for a dead server. */
  serverExit: Promise<void>;
  serverGone: () => boolean;
  remote: RemoteLink;
}

/** How a kill point is reached. Points that need the drill remote (`sent`, `confirmed`) slot in here. */
type PointTrigger = (ctx: PointContext) => Promise<PointOutcome>;

const TRIGGERS: Record<KillPoint, PointTrigger> = {
  idle: async () => ({ reached: true, detail: 'connected, tools/list and setup answered, a ping answered, no call in flight' }),
  'pre-dispatch': async (ctx) => {
    const before = await prepare(ctx);
    return before.reached ? { reached: true, detail: 'the target call is built and not yet written' } : before;
  },
  'in-flight': async (ctx) => {
    const dispatched = await dispatch(ctx, true);
    if (!dispatched.reached) return dispatched;
    const delay = ctx.scenario.timeouts.inFlightDelay;
    // The configured delay is part of the scenario (how long the call has been in flight), not a synchronisation.
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    return { reached: true, detail: `the target call was written${delay > 0 ? ` ${delay} ms ago` : ''}; its answer is left unread` };
  },
  'child-spawned': async (ctx) => childSpawned(ctx),
  'after-response': async (ctx) => {
    const dispatched = await dispatch(ctx, false);
    if (!dispatched.reached) return dispatched;
    const answer = await waitClient(ctx, (e) => e.type === 'response' || e.type === 'call-error');
    if (!answer) return { reached: false, reason: notReached(ctx, 'no answer to the target call came back') };
    return { reached: true, detail: answer.type === 'response' ? 'the client received the tool result' : 'the client received an error answer' };
  },
  sent: async (ctx) => atRemote(ctx, 'sent'),
  confirmed: async (ctx) => atRemote(ctx, 'confirmed'),
};

/**
 * `sent`: the server's request for the target call has fully arrived at the remote, which holds
 * it before acting. `confirmed`: the remote committed and holds the answer. The trigger is the
 * drill's first write after dispatch unless the scenario names one. The executor releases the
 * gate once the client is dead.
 */
async function atRemote(ctx: PointContext, point: 'sent' | 'confirmed'): Promise<PointOutcome> {
  const gate = ctx.remote.arm(point);
  const dispatched = await dispatch(ctx, true);
  if (!dispatched.reached) return dispatched;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ctx.scenario.timeouts.point)));
  const exited = ctx.serverExit.then(() => null);
  const hit = await Promise.race([gate.reached.catch(() => null), timeout, exited]);
  clearTimeout(timer);
  if (!hit) {
    gate.disarm();
    return {
      reached: false,
      reason: ctx.serverGone() ? 'the server exited before its request reached the remote' : 'no request of the target call reached the remote',
    };
  }
  const what =
    point === 'sent'
      ? 'arrived and is held before the remote acts on it'
      : `was committed${hit.effectId ? ` (effect ${hit.effectId})` : ''} and its answer is held`;
  return { reached: true, detail: `${hit.method} ${hit.path} ${what}` };
}

export function reachPoint(point: KillPoint, ctx: PointContext): Promise<PointOutcome> {
  return TRIGGERS[point](ctx);
}

async function prepare(ctx: PointContext): Promise<PointOutcome> {
  if (!ctx.client.send({ type: 'prepare-target' })) return { reached: false, reason: 'the client is gone' };
  const before = await waitClient(ctx, (e) => e.type === 'before-dispatch');
  return before ? { reached: true, detail: '' } : { reached: false, reason: notReached(ctx, 'the client never built the target call') };
}

async function dispatch(ctx: PointContext, holdResponses: boolean): Promise<PointOutcome> {
  const prepared = await prepare(ctx);
  if (!prepared.reached) return prepared;
  ctx.client.send({ type: 'dispatch', holdResponses });
  const written = await waitClient(ctx, (e) => e.type === 'dispatched');
  return written ? { reached: true, detail: '' } : { reached: false, reason: notReached(ctx, 'the target call was never written') };
}

/**
 * child-spawned: the first new descendant after dispatch that runs a program of its own and
 * lives the scenario's `child.aliveFor` (child-point.ts says which). The tracker is sampled every
 * 2 ms while armed (new pids and the drill's own: sampleNew); the window ends at a sample, never
 * at a timer, so the child is seen alive then, not assumed.
 */
async function childSpawned(ctx: PointContext): Promise<PointOutcome> {
  const known = new Set(ctx.tracker.sampleNow().map(keyOf));
  const dispatched = await dispatch(ctx, true);
  if (!dispatched.reached) return dispatched;
  const dispatchedAt = monoNow();
  const pick = new ChildPick(ctx.scenario.child, known, ctx.server);
  return new Promise<PointOutcome>((resolve) => {
    let done = false;
    const finish = (outcome: PointOutcome) => {
      if (done) return;
      done = true;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(outcome);
    };
    const look = () => {
      if (done) return;
      const child = pick.see(ctx.tracker.sampleNew(), monoNow());
      if (!child) return;
      const startedAt = Math.round(startTimeToMono(child.startTime) - dispatchedAt);
      finish({
        reached: true,
        detail: `pid ${child.pid} (${child.cmdline.join(' ').slice(0, 80)}) started ${Math.max(0, startedAt)} ms after dispatch, alive ${child.aliveMs} ms after its exec was seen`,
        process: { pid: child.pid, startTime: child.startTime, cmdline: child.cmdline, sinceDispatchMs: Math.max(0, startedAt), aliveMs: child.aliveMs },
      });
    };
    const poll = setInterval(look, 2);
    const timer = setTimeout(() => finish({ reached: false, reason: pick.whyNot() }), ctx.scenario.timeouts.point);
    void ctx.serverExit.then(() => {
      look();
      finish({ reached: false, reason: `the server exited before a child of the call was reached: ${pick.whyNot()}` });
    });
    look();
  });
}

function keyOf(p: TrackedProcess): string {
  return identityKey({ pid: p.pid, startTime: p.startTime });
}

async function waitClient(ctx: PointContext, match: (event: ClientEvent) => boolean): Promise<ClientEvent | null> {
  let exited = false;
  const exit = ctx.serverExit.then(() => {
    exited = true;
    return null;
  });
  const event = await Promise.race([ctx.client.waitFor(match, ctx.scenario.timeouts.point), exit]);
  // The event may have arrived just as the server exited: prefer the event.
  return event ?? (exited ? await ctx.client.waitFor(match, 0) : null);
}

function notReached(ctx: PointContext, fallback: string): string {
  if (ctx.serverGone()) return 'the server exited before the point was reached';
  if (!ctx.client.alive) return 'the drill client died before the point was reached';
  return fallback;
}
