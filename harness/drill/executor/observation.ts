/**
 * After the client is lost: the revocation, then the observation window (until everything is
 * gone, or the exit deadline plus the survivors' grace has passed; a hang's window is the exit
 * deadline), and the snapshot at its end. Nothing is decided here: the checks judge the
 * evidence.
 */
import { longestStop } from '../../client-profiles/profiles.js';
import { DEFAULT_EXIT_DEADLINE_MS, DEFAULT_SURVIVOR_GRACE_MS, type LossMode, type Scenario } from '../../config/index.js';
import type { ProfileFacts } from '../../evidence/types.js';
import { identityKey, inventory, readFdLinks, readStatOnce, type TrackedProcess } from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import { recordProcessFacts } from './diagnosis-facts.js';
import type { SnapshotLabel } from './extension.js';
import type { RemoteLink } from './remote-link.js';
import type { ServerWatch } from './server-watch.js';
import type { StartedDrill } from './start.js';
import type { DrillContext } from './types.js';
import { stopDone } from './kill.js';

export interface LostDrill {
  started: StartedDrill;
  scenario: Scenario;
  link: RemoteLink;
  watch: ServerWatch;
  /** When the client was lost (monoNow()). */
  lossAt: number;
  mode: LossMode;
  /** The drill's client profile (its stop sequence, in close and stop). */
  profile: ProfileFacts;
  /** The server's ends of its stdio (fd links: `pipe:[N]`, `socket:[N]`, a FIFO's path), as read after the handshake; empty if none could be read. */
  stdio: readonly string[];
}

/** How much longer than its waits a stop sequence may take to report its end (its signals and /proc reads). */
const STOP_DONE_SLACK_MS = 5_000;

/** Revocation after the client is lost (by default at once), then the probe with the revoked token. */
export async function revokeAfterLoss({ scenario, link, lossAt }: LostDrill): Promise<void> {
  const wait = lossAt + scenario.remote.revokeAfter - monoNow();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await link.revoke('harness');
}

/**
 * Waits on events (exits, an empty cgroup) until everything is gone or the deadline plus grace
 * has passed. In close and stop the client first carries its stop sequence to its end, and the
 * grace runs from that end too (a VS Code stop takes up to 20 s): what is judged is what is left
 * after the client did all it does. Then, in close, the client quits. In stop, abandon and
 * hang the client lives on, and is no survivor.
 */
export async function observeWindow(ctx: DrillContext, lost: LostDrill): Promise<void> {
  const { scenario, lossAt, mode, watch, link } = lost;
  const { tracker, clientId, client } = lost.started;
  const deadline = scenario.expect.exitOnEof?.deadline ?? DEFAULT_EXIT_DEADLINE_MS;
  if (mode === 'hang') {
    // A stopped client keeps the pipes open: nothing is expected to end. The window is the exit deadline.
    await ctx.wait(new Promise((resolve) => setTimeout(resolve, deadline)));
    snapshot(ctx, lost, 'hang-window', false);
    await ctx.extensions.snapshot('hang-window', ctx.wait);
    return;
  }
  const grace = scenario.expect.noSurvivors?.grace ?? DEFAULT_SURVIVOR_GRACE_MS;
  const exclude = mode === 'crash' ? [] : [clientId];
  let end = lossAt + deadline + grace;
  // diagnosis: what holds the server up when exit-on-eof judges it; a little before the deadline,
  // where close's SIGTERM (close-wait, by default the deadline) has not yet changed anything
  const atDeadline = setTimeout(
    () => {
      const server = watch.server;
      // Every live member, so the server's facts count its children as the snapshot's do.
      const client = identityKey(clientId);
      const live = tracker.live().filter((p) => identityKey(p) !== client);
      if (!watch.exited && server) recordProcessFacts(ctx.rec, 'deadline', live, server, ctx.rec.knownSecrets());
    },
    Math.max(0, lossAt + deadline - Math.min(250, deadline / 10) - monoNow()),
  );
  // From the deadline on, a piped stderr the lost client held closes as it does under the real client (no-survivors follows it).
  const releaseStderr = setTimeout(() => client.releaseStderr?.(), Math.max(0, lossAt + deadline - monoNow()));
  if (mode === 'close' || mode === 'stop') {
    const done = await ctx.wait(stopDone(client, longestStop(lost.profile.stop) + STOP_DONE_SLACK_MS));
    if (done?.type !== 'stop-done') ctx.rec.harness({ type: 'harness-error', phase: 'kill', message: 'the client did not finish its stop sequence' });
    else end = Math.max(end, done.t + grace);
    if (mode === 'close' && client.alive) {
      // What the quit could reach (harness/plan/by-evidence.ts): with the server's exit recorded, no process left that it can.
      const quitting = identityKey(clientId);
      const live = tracker.sampleNow().filter((p) => identityKey(p) !== quitting);
      ctx.rec.harness({
        type: 'client-quit',
        how: 'the client quit after its stop sequence: its ends of the pipes closed with it',
        alive: live.length,
        reachable: live.filter((p) => quitReaches(p, clientId.pid, lost.stdio)).length,
        serverExited: watch.exited,
      });
      client.send({ type: 'exit' });
    }
  }
  const quiet = await ctx.wait(tracker.waitForQuiet({ exclude, timeoutMs: Math.max(0, end - monoNow()) })).finally(() => {
    clearTimeout(atDeadline);
    clearTimeout(releaseStderr);
    client.releaseStderr?.();
  });
  // Remote jobs get the same time to settle: a job that is cancelled or done by then is fine.
  const jobs = scenario.expect.jobsSettled;
  if (jobs) await ctx.wait(link.jobsSettled(Math.max(0, lossAt + deadline + jobs.grace - monoNow())));
  // An exit the observer saw is recorded once the client reported its status (or gave up).
  const pending = watch.pendingExit();
  if (pending) await ctx.wait(pending);
  snapshot(ctx, lost, 'grace-end', quiet && monoNow() < end);
  await ctx.extensions.snapshot('grace-end', ctx.wait);
  link.recordState('grace-end');
}

/**
 * Whether a client's quit can reach a live process of its drill: the quit closes the client's ends
 * of the server's stdio (EOF or EPIPE for a process holding the server's ends) and ends the client,
 * which re-parents its children (a parent-death signal, a changed ppid) and can orphan a process
 * group (SIGHUP to a stopped member): torvalds/linux kernel/exit.c, forget_original_parent() sends
 * each re-parented child its pdeath_signal, and reparent_leader() calls kill_orphaned_pgrp() (read
 * in the code since Linux 4.19, whose group_send_sig_info takes PIDTYPE_TGID). A process that holds none of the server's stdio ends, is not
 * the client's child and is not stopped is out of its reach. One whose fds cannot be read, or where
 * the server's ends are not known, counts as reached.
 */
function quitReaches(p: TrackedProcess, clientPid: number, stdio: readonly string[]): boolean {
  if (stdio.length === 0) return true;
  const state = readStatOnce(p.pid);
  if (state === null || state.startTime !== p.startTime) return false; // gone since the sample
  if (state.ppid === clientPid || state.state === 'T' || state.state === 't') return true;
  const links = readFdLinks(p.pid);
  return links === null || links.some((l) => stdio.includes(l));
}

/** Every live process of the drill but the client, with what it holds, before containment changes anything. */
function snapshot({ rec }: DrillContext, { started, watch }: LostDrill, label: SnapshotLabel, early: boolean): void {
  watch.look();
  const client = identityKey(started.clientId);
  const live = started.tracker.sampleNow().filter((p) => identityKey(p) !== client);
  const survivors = live.flatMap((p) => inventory(p, { secrets: rec.knownSecrets(), foundBy: p.foundBy }) ?? []);
  rec.harness({ type: 'snapshot', label, early, survivors });
  recordProcessFacts(rec, 'snapshot', live, watch.server, rec.knownSecrets()); // diagnosis, before containment
}
