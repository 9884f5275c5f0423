/**
 * The end of every drill, whichever phase it stopped in: containment in its documented order
 * (docs/design.md, "Contracts": revoke, confirm denial with the probe, SIGTERM, wait, SIGKILL
 * only if needed), then the drill's client, remote link, cgroup and temp folder let go.
 */
import { rm } from 'node:fs/promises';
import type { Scenario } from '../../config/index.js';
import { containDrill } from '../../containment/drill.js';
import { clockTicksPerSecond, DrillTracker, identify, type DrillCgroup } from '../../observe/index.js';
import type { DrillClient } from '../client/drill-client.js';
import type { EvidenceRecorder } from './recorder.js';
import type { ActivityRecord } from './activity-record.js';
import type { RemoteLink } from './remote-link.js';
import type { LoopbackNetwork } from '../network/namespace.js';
import type { ServerWatch } from './server-watch.js';
import type { DrillContext } from './types.js';

const STDERR_DRAIN_MS = 300;
/** Containment: how long SIGTERM gets before SIGKILL when the run names no wait (ms). */
const CONTAIN_TERM_WAIT_MS = 1000;
/** How long the drill's cgroup gets to empty once its holder is released (ms): the holder's exit, not a fixed wait. */
const CGROUP_EMPTY_WAIT_MS = 2000;

/** What the drill holds so far: each part is set the moment it exists, and containment ends or removes whatever is set. */
export interface Holdings {
  tmp?: string;
  link?: RemoteLink;
  /** The rendered scenario: its remote settings say whether containment rotates the API key. */
  scenario?: Scenario;
  /** Null without cgroup support, or once the client could not be put in it. */
  cgroup: DrillCgroup | null;
  /** The client as soon as it is made, before it is ready. */
  client?: DrillClient;
  tracker?: DrillTracker;
  /** The recovery retry's clients: their holders stay until the drill is contained. */
  retryClients: DrillClient[];
  /** The server's own activity record, when the drill reads it (activity-watch.ts). */
  activity?: ActivityRecord | null;
  /** The loopback-only network the server runs in (`network: loopback`, drill-network.ts). */
  network?: LoopbackNetwork;
}

export async function containAndClean(ctx: DrillContext, held: Holdings, watch: ServerWatch): Promise<void> {
  const { rec } = ctx;
  const termWaitMs = ctx.opts.containTermWaitMs ?? CONTAIN_TERM_WAIT_MS;
  // An exit still waiting for the client's report is recorded before containment, as seen.
  watch.settleNow();
  rec.harness({ type: 'containment-start' });
  if (held.link) {
    await held.link.revoke('containment');
    if (held.scenario?.remote.rotateApiKey) held.link.rotateApiKey();
  }
  // A client that never reported ready may still have started the server (it is told to at
  // once): track it now, so containment reaches everything it started.
  const { client } = held;
  const pid = client?.clientPid();
  const late = !held.tracker && pid !== undefined ? identify(pid) : null;
  const holderId = client?.holder?.identity;
  if (late) held.tracker = new DrillTracker({ drillId: ctx.drillId, root: late, cgroup: held.cgroup, subreapers: holderId ? [holderId] : [] });
  // Extensions first (containers: stop --time, kill), so what they started (engine CLIs) ends on its own.
  await ctx.extensions.contain(termWaitMs);
  if (held.tracker) await containTracked(held.tracker, rec, termWaitMs);
  else if (client?.holder)
    client.abandon(); // the holder's watchdog ends whatever the untracked client started
  else if (client?.alive) client.child.kill('SIGKILL'); // it is gone from /proc already, or never got a pid
  watch.look();
  watch.stop();
  if (client) await client.closed(STDERR_DRAIN_MS);
  // The record as the drill ends, its stderr read to the end: the incident record's last actions.
  held.activity?.finish();
  if (client) {
    client.dispose();
    client.release();
  }
  for (const retryClient of held.retryClients) retryClient.release();
  if (held.link) {
    held.link.recordState('final');
    held.link.detach();
  }
  // After containment: nothing of the drill is left to talk through its relays.
  await held.network?.close();
  // The released holder exits on its own a moment later, and the kernel refuses to remove a
  // cgroup with a process inside (EBUSY): removed then, every drill's cgroup was left behind
  // whenever the holder had not yet gone, and each sweep of every later run read it again.
  if (held.cgroup) await held.cgroup.whenEmpty(CGROUP_EMPTY_WAIT_MS);
  recordCpu(ctx, held);
  held.cgroup?.remove();
  if (held.tmp) await rm(held.tmp, { recursive: true, force: true });
}

/** The drill's CPU (the drill-cpu event), once its cgroup is empty and its figure final. */
function recordCpu({ rec }: DrillContext, held: Holdings): void {
  const usec = held.cgroup && !held.cgroup.populated() ? held.cgroup.cpuUsageUsec() : null;
  if (usec === null) return;
  let clientTicks: number | null = 0;
  for (const c of [held.client, ...held.retryClients]) {
    const ticks = c?.holder?.clientCpuTicks;
    clientTicks = clientTicks === null || ticks === undefined || ticks === null ? null : clientTicks + ticks;
  }
  const clientMs = clientTicks === null ? null : (clientTicks / clockTicksPerSecond()) * 1000;
  rec.harness({ type: 'drill-cpu', cgroupMs: usec / 1000, clientMs });
}

/**
 * Ends every process of the drill (harness/containment/drill.ts: SIGTERM, wait, SIGKILL only if
 * needed, each process re-identified before each signal) and records each signal the harness sent
 * as evidence, from the step's fields (harness/containment/step.ts), so a check can tell an exit
 * the harness caused from one the server chose.
 */
async function containTracked(tracker: DrillTracker, rec: EvidenceRecorder, termWaitMs: number): Promise<void> {
  const records = await containDrill(tracker, { termWaitMs });
  for (const record of records) {
    for (const step of record.steps) {
      if (step.kind === 'signal')
        rec.harness(
          { type: 'signal', pid: step.target.pid, startTime: step.target.startTime, signal: step.signal, by: 'harness', result: step.result },
          step.t,
        );
    }
  }
  rec.harness({ type: 'containment', records });
  tracker.stop();
}
