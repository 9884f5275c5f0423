/**
 * Every client's stop sequence, run from data (harness/client-profiles/profiles.ts) by both drill
 * clients. "Until the group is gone" polls, as the Python SDK's terminate_posix_process_tree and
 * Codex's terminate_and_observe do every 10 ms.
 */
import type { Liveness, Reach, StopStep } from '../client-profiles/profiles.js';
import { signalIdentity } from '../containment/signal.js';
import { procState, type ProcIdentity } from '../observe/index.js';
import { monoNow } from '../util/clock.js';
import { descendantMembers, groupMembers, treeMembers } from './process-reach.js';
import type { ClientEvent, StopStepResult, StopTarget } from './protocol.js';

/** The client's hold on the server it stops. */
export interface StopHold {
  /** The direct child (the server, or its launcher), or null when it never started. */
  child(): ProcIdentity | null;
  childExited(): boolean;
  childExit(ms: number): Promise<boolean>;
  closeStdin(): void;
  /** The server has a process group of its own (the profile spawns it with setpgid or setsid): its id is the child's pid. */
  ownGroup: boolean;
}

const GROUP_POLL_MS = 10;
/** Between full reads of /proc, only the members already known are re-read (a full read costs a few ms on a busy machine). */
const FULL_READ_EVERY = 10;

type Emit = (event: ClientEvent) => void;

/** Runs the steps in order, reporting each; resolves when the last is done (then `stop-done`). */
export async function runStopSteps(steps: readonly StopStep[], hold: StopHold, emit: Emit): Promise<void> {
  const started = monoNow();
  const sent = new Set<number>();
  for (const [index, step] of steps.entries()) {
    const report = (result: StopStepResult, targets?: StopTarget[], t = monoNow()) =>
      emit({ type: 'stop-step', t, index, step, result, ...(targets ? { targets } : {}) });
    if (step.kind === 'abandon') report('done');
    else if (step.kind !== 'close-stdin' && step.onlyIfSent !== undefined && !sent.has(step.onlyIfSent)) report('skipped');
    else if (step.kind === 'close-stdin') {
      if (!alive(step.onlyIfAlive, hold)) report('skipped');
      else {
        hold.closeStdin();
        report('done');
      }
    } else if (step.kind === 'wait-ms') {
      report((await wait(step.ms, step.endsWhenGone, hold)) ? 'ended-early' : 'ran-out');
    } else {
      if (!alive(step.onlyIfAlive, hold)) report('skipped');
      else if (step.to === 'group' && !hold.ownGroup) report('refused');
      else {
        // Stamped before the first signal: the harness may see a SIGKILLed process gone before this client reports.
        const t = monoNow();
        const targets = reach(step.to, hold).map((id) => ({ ...id, result: signalIdentity(id, step.name) }));
        const any = targets.some((x) => x.result === 'sent');
        if (any) sent.add(index);
        report(any ? 'sent' : 'none-alive', targets, t);
      }
    }
  }
  emit({ type: 'stop-done', t: monoNow(), ms: Math.round(monoNow() - started) });
}

function reach(to: Reach, hold: StopHold): ProcIdentity[] {
  const child = hold.child();
  if (!child) return [];
  if (to === 'child') return [child];
  if (to === 'tree') return treeMembers(child);
  if (to === 'descendants') return descendantMembers(child);
  return groupMembers(child.pid);
}

/** Whether what `onlyIfAlive` asks about still lives (null: no condition). */
function alive(what: Liveness | null, hold: StopHold): boolean {
  if (what === null) return true;
  if (what === 'child') return !hold.childExited();
  return hold.ownGroup && hold.child() !== null && groupMembers(hold.child()!.pid).length > 0;
}

/** Waits `ms`, or less once `endsWhenGone` is gone; true when it ended early. */
async function wait(ms: number, endsWhenGone: Liveness | null, hold: StopHold): Promise<boolean> {
  if (endsWhenGone === 'child') return hold.childExit(ms);
  const until = monoNow() + ms;
  const child = hold.child();
  if (endsWhenGone === null || !hold.ownGroup || !child) {
    await sleep(ms);
    return false;
  }
  let known = groupMembers(child.pid);
  for (let poll = 1; ; poll++) {
    if (known.length === 0) return true;
    const left = until - monoNow();
    if (left <= 0) return false;
    await sleep(Math.min(GROUP_POLL_MS, left));
    known = poll % FULL_READ_EVERY === 0 ? groupMembers(child.pid) : known.filter((id) => procState(id) === 'alive');
    // What looks empty is confirmed by a full read: a member forked since the last one counts.
    if (known.length === 0) known = groupMembers(child.pid);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
