import type { StopStep } from '../../client-profiles/profiles.js';
import type { KillMode, LossMode, Scenario } from '../../config/index.js';
import type { ProfileFacts } from '../../evidence/types.js';
import type { ProcIdentity } from '../../observe/index.js';
import type { ClientEvent } from '../../shared/protocol.js';
import { monoNow } from '../../util/clock.js';
import type { DrillClient } from '../client/drill-client.js';
import type { EvidenceRecorder } from './recorder.js';
import { signalIdentity } from '../../containment/signal.js';

const CLOSE_ACK_TIMEOUT_MS = 5_000;

export interface KillContext {
  client: DrillClient;
  clientId: ProcIdentity;
  scenario: Scenario;
  rec: EvidenceRecorder;
  wait: <T>(promise: Promise<T>) => Promise<T>;
  /** Lets a request held at the remote (`sent`, `confirmed`) go on. */
  releaseGate: () => void;
  /** Records the remote's jobs and effects at the end of a cancel drill's window. */
  recordRemoteState: () => void;
  /** The drill's client profile (its spawn, stop sequence and crash). */
  profile: ProfileFacts;
  /** The direct child the client spawned, by identity (the parent-death signal of a crash reaches it). */
  directChild: () => ProcIdentity | null;
}

/** How the target call ended: the client was lost in `mode` at `lossAt`, or only cancelled (`cancel`). */
export type TargetEnd = { mode: LossMode; lossAt: number } | { mode: 'cancel'; lossAt: null };

/**
 * Ends the target call in the drill's mode. A loss mode kills the client (killClient). `cancel`
 * writes notifications/cancelled and keeps the client alive and reading for the observation
 * window (the longest deadline of the cancel checks); with `cancel.then` the client is then
 * killed `cancel.after` ms after the cancel, and the drill goes on as a drill of that mode.
 * Null when the kill or the cancel itself failed.
 */
export async function endTarget(mode: KillMode, ctx: KillContext): Promise<TargetEnd | null> {
  if (mode !== 'cancel') {
    const lossAt = await killClient(mode, ctx);
    ctx.releaseGate();
    return lossAt === null ? null : { mode, lossAt };
  }
  const cancelAt = await cancelTarget(ctx);
  ctx.releaseGate();
  if (cancelAt === null) return null;
  const { then, after } = ctx.scenario.cancel;
  const until = cancelAt + (then ? after : cancelWindow(ctx.scenario));
  // The window is configuration (expect), not a synchronisation: silence can only be seen by waiting it out.
  await ctx.wait(new Promise((resolve) => setTimeout(resolve, Math.max(0, until - monoNow()))));
  ctx.recordRemoteState();
  if (!then) return { mode: 'cancel', lossAt: null };
  const lossAt = await killClient(then, ctx);
  return lossAt === null ? null : { mode: then, lossAt };
}

/** The observation window of a cancel drill: the longest deadline of the cancel checks that apply. */
export function cancelWindow(scenario: Scenario): number {
  const { stopsAfterCancel, aliveAfterCancel } = scenario.expect;
  return Math.max(stopsAfterCancel?.deadline ?? 0, aliveAfterCancel?.deadline ?? 0, 500);
}

async function cancelTarget(ctx: KillContext): Promise<number | null> {
  const { client, scenario, rec } = ctx;
  const followUpTimeoutMs = scenario.expect.aliveAfterCancel?.deadline ?? cancelWindow(scenario);
  client.send({ type: 'cancel', followUpTimeoutMs });
  const sent = await ctx.wait(client.waitFor((e) => e.type === 'cancel-sent' || e.type === 'client-error', CLOSE_ACK_TIMEOUT_MS));
  if (sent?.type !== 'cancel-sent') {
    const why = sent?.type === 'client-error' ? `: ${sent.message}` : '';
    rec.harness({ type: 'harness-error', phase: 'kill', message: `the client did not write notifications/cancelled${why}` });
    return null;
  }
  rec.harness(
    {
      type: 'kill',
      mode: 'cancel',
      signal: null,
      result: `notifications/cancelled written for request ${JSON.stringify(sent.requestId)}; the client stays and reads`,
    },
    sent.t,
  );
  return sent.t;
}

/**
 * Loses the client in the drill's mode and records the moment the server lost it: the SIGKILL
 * (crash), the first step of the profile's stop sequence (close and stop: the client carries on
 * with the rest), the drop (abandon) or the SIGSTOP (hang). Null when the kill itself failed.
 */
export async function killClient(mode: LossMode, ctx: KillContext): Promise<number | null> {
  const { client, clientId, rec, profile } = ctx;
  if (mode === 'close' || mode === 'stop') return beginStop(mode, ctx);
  if (mode === 'abandon') {
    client.send({ type: 'abandon' });
    const dropped = await ctx.wait(client.waitFor((e) => e.type === 'abandoned' || e.type === 'client-error', CLOSE_ACK_TIMEOUT_MS));
    if (dropped?.type !== 'abandoned') {
      rec.harness({ type: 'harness-error', phase: 'kill', message: 'the client did not drop the server' });
      return null;
    }
    rec.harness({ type: 'kill', mode, signal: null, result: 'the client dropped the server: no EOF, no signal' }, dropped.t);
    rec.harness({ type: 'client-lost', mode, how: 'the client dropped the server and lives on, its pipe ends open (a logical orphan)' }, dropped.t);
    return dropped.t;
  }
  const signal = mode === 'crash' ? 'SIGKILL' : 'SIGSTOP';
  const t = monoNow();
  const result = signalIdentity(clientId, signal);
  // Then, in this same tick, an in-process client closes (crash) or freezes (hang) its ends of
  // the server's pipes. After the signal: a stand-in SIGKILLed first can no longer reap a server
  // that exits at once on EOF, so its exit status stays for the observer, as when a client
  // process dies (the kernel closes a dead client's pipes after it can run no more).
  client.onLoss?.(mode);
  rec.harness({ type: 'kill', mode, signal, result }, t);
  if (result !== 'sent') {
    rec.harness({ type: 'harness-error', phase: 'kill', message: `could not ${signal} the client: ${result}` });
    return null;
  }
  const how = signal === 'SIGKILL' ? 'the client was SIGKILLed' : 'the client was SIGSTOPped (alive, stuck)';
  rec.harness({ type: 'client-lost', mode, how }, t);
  // The client's death makes the kernel send its direct child the profile's parent-death signal (Goose: SIGTERM).
  const child = ctx.directChild();
  if (mode === 'crash' && profile.crash !== 'eof' && child) rec.harness({ type: 'parent-death-signal', ...child, signal: profile.crash.signal }, t);
  return t;
}

/** close and stop: the client starts the profile's stop sequence; the server lost it at the first step. */
async function beginStop(mode: 'close' | 'stop', { client, rec, profile, wait }: KillContext): Promise<number | null> {
  client.send({ type: 'stop', steps: [...profile.stop] });
  const first = await wait(client.waitFor((e) => e.type === 'stop-step' || e.type === 'client-error', CLOSE_ACK_TIMEOUT_MS));
  if (first?.type !== 'stop-step') {
    const why = first?.type === 'client-error' ? `: ${first.message}` : '';
    rec.harness({ type: 'harness-error', phase: 'kill', message: `the client did not begin its stop sequence${why}` });
    return null;
  }
  const step = stepText(first.step);
  rec.harness({ type: 'kill', mode, signal: null, result: `${step} by the client` }, first.t);
  const then = mode === 'close' ? 'then it quits' : 'and lives on';
  rec.harness({ type: 'client-lost', mode, how: `the client began ${profile.name}'s stop sequence with ${step}, ${then}` }, first.t);
  return first.t;
}

/** A stop step in a few words, for the record. */
export function stepText(step: StopStep): string {
  if (step.kind === 'close-stdin') return "the server's stdin closed";
  if (step.kind === 'wait-ms') return `a wait of up to ${step.ms} ms`;
  if (step.kind === 'abandon') return 'the server dropped with its pipes held open';
  return `${step.name} to the ${step.to === 'child' ? 'direct child' : step.to}`;
}

/** The stop sequence's end (`stop-done`), or null when it did not come within its longest time. */
export function stopDone(client: KillContext['client'], within: number): Promise<ClientEvent | null> {
  return client.waitFor((e) => e.type === 'stop-done' || e.type === 'client-error', within);
}
