/** What the drill's client did to its server, read from the evidence: the client profile it ran under, and every signal it sent that reached a given process. */
import { behaviourOf } from '../client-profiles/profiles.js';
import type { KillMode } from '../config/index.js';
import { eventsOf, firstOf, type DrillEvidence, type ProfileFacts } from './types.js';

export function profileOf(evidence: DrillEvidence): ProfileFacts {
  const recorded = firstOf(evidence, 'client-profile')?.profile;
  if (recorded) return recorded;
  const { name, spawn, stop, closesStdinWhenChildExits, crash } = behaviourOf(evidence.meta.clientProfile);
  return { name, spawn, stop, closesStdinWhenChildExits, crash };
}

/** A signal the client sent: a step of its stop sequence, or the parent-death signal its death made the kernel send. */
export interface ClientSignal {
  signal: string;
  t: number;
  how: 'stop' | 'parent-death';
}

/** The signals the client sent to `target` (by identity) at or before `until`, in order. */
export function clientSignalsTo(evidence: DrillEvidence, target: { pid: number; startTime: number | null }, until: number): ClientSignal[] {
  const out: ClientSignal[] = [];
  const same = (x: { pid: number; startTime: number | null }) => x.pid === target.pid && x.startTime === target.startTime;
  for (const e of eventsOf(evidence, 'stop-step')) {
    if (e.step.kind !== 'signal' || e.t > until) continue;
    if ((e.targets ?? []).some((x) => x.result === 'sent' && same(x))) out.push({ signal: e.step.name, t: e.t, how: 'stop' });
  }
  for (const e of eventsOf(evidence, 'parent-death-signal')) if (same(e) && e.t <= until) out.push({ signal: e.signal, t: e.t, how: 'parent-death' });
  return out.sort((a, b) => a.t - b.t);
}

/** Whether the loss began with EOF alone (a crash without parent-death signal, or a stop that closes stdin first), so an exit after it is the server's own. */
export function lossBeginsWithEof(evidence: DrillEvidence, mode: KillMode): boolean {
  const profile = profileOf(evidence);
  if (mode === 'crash') return profile.crash === 'eof';
  if (mode === 'close' || mode === 'stop') return profile.stop[0]?.kind === 'close-stdin';
  return false;
}

/** Whether the client had closed the server's stdin by `t`, so EOF could have reached it. */
export function eofSentBy(evidence: DrillEvidence, t: number): boolean {
  const mode = evidence.meta.mode;
  if (mode === 'crash') return true;
  if (mode !== 'close' && mode !== 'stop') return false;
  const steps = eventsOf(evidence, 'stop-step');
  // A log without the steps it ran (built by hand, or cut): the profile's sequence says whether it closes stdin.
  if (steps.length === 0) return profileOf(evidence).stop.some((s) => s.kind === 'close-stdin');
  const closed = steps.some((e) => e.step.kind === 'close-stdin' && e.result !== 'skipped' && e.t <= t);
  const quit = eventsOf(evidence, 'client-quit').some((e) => e.t <= t) || eventsOf(evidence, 'runtime-stdin-closed').some((e) => e.t <= t);
  return closed || quit;
}

/** Whether the client told the server it was done with it (by EOF or a signal): not in abandon or hang, where its pipes stay open and nothing is sent. */
export function serverToldOfLoss(mode: KillMode): boolean {
  return mode !== 'abandon' && mode !== 'hang';
}

/**
 * Whether a close drill's client quit with nothing of the drill left to reach: the server's exit
 * recorded, and no process of the drill alive that the quit can reach (none that holds the server's
 * stdio ends, is the client's child or is stopped: harness/drill/executor/observation.ts), the
 * quit's own sample says, and no harness error. The quit is then all that tells close from stop
 * under the same profile, and it acts on nothing, so the stop drill cannot differ
 * (harness/plan/by-evidence.ts).
 */
export function quitReachedNothing(evidence: DrillEvidence): boolean {
  if (evidence.meta.mode !== 'close' || eventsOf(evidence, 'harness-error').length > 0) return false;
  const quits = eventsOf(evidence, 'client-quit');
  if (quits.length !== 1 || quits[0].serverExited !== true) return false;
  const { alive, reachable } = quits[0];
  return alive === 0 || reachable === 0;
}
