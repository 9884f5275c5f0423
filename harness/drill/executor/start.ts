/**
 * The start of a drill: its cgroup, its client (told at once to start the server), the client's
 * identity and holder, and the tracker rooted at the client. Each part is handed to the
 * holdings the moment it exists, so containment reaches it if the start stops half way.
 */
import type { Scenario } from '../../config/index.js';
import { cgroupSupport, createDrillCgroup, readCmdline, type DrillCgroup, type DrillTracker, type ProcIdentity } from '../../observe/index.js';
import { CLIENT_START_TIMEOUT_MS, clientSpawn, startCommand } from '../client/client-process.js';
import { profileFacts } from './profile-facts.js';
import { createDrillClient, defaultClientKind, type DrillClient } from '../client/drill-client.js';
import { holderUnavailable } from '../holder/holder.js';
import type { Holdings } from './clean-up.js';
import type { RemoteLink } from './remote-link.js';
import { subjectEnv } from './render.js';
import type { ServerWatch } from './server-watch.js';
import { recordedTracker } from './tracker-events.js';
import type { DrillContext } from './types.js';

/** A drill whose client is up and tracked: what the later phases work with. */
export interface StartedDrill {
  client: DrillClient;
  clientId: ProcIdentity;
  /** Null without cgroup support, or when the client could not be put in it. */
  cgroup: DrillCgroup | null;
  tracker: DrillTracker;
}

/** Null when the client did not start (recorded as a harness error). */
export async function startDrill(ctx: DrillContext, held: Holdings, scenario: Scenario, link: RemoteLink, watch: ServerWatch): Promise<StartedDrill | null> {
  const { rec } = ctx;
  // The cgroup comes first: the client is born into it (client-process.ts).
  if (cgroupSupport().available) held.cgroup = createDrillCgroup(ctx.drillId);
  // The client process, or the SDK client in this process over the server's pipes (drill-client.ts).
  const client = createDrillClient(
    ctx.opts.client ?? defaultClientKind(),
    ctx.drillId,
    {
      onEvent: (event) => {
        rec.client(event);
        watch.clientEvent(event);
      },
      onSubjectStderr: (text) => {
        rec.harness({ type: 'subject-stderr', text });
        held.activity?.stderr(text);
      },
      onSubjectStderrEnd: () => watch.stderrEnded(),
      onHolderChild: () => watch.holderChild(),
      onClientStderr: (text) => rec.harness({ type: 'client-stderr', text }),
    },
    held.cgroup?.path,
    ctx.opts.holders,
  ).client;
  held.client = client;
  // Sent at once: the client spawns the server while it is still loading the SDK.
  // Cancel drills ask for progress on the target call, so silent-after-cancel can see it (a token changes what some servers send).
  client.send(
    startCommand(scenario, subjectEnv(scenario, ctx.drillId, link, link.session.token), rec.meta.correlationId, {
      progressToken: ctx.drill.mode === 'cancel',
      client: clientSpawn(profileFacts(ctx.drill)),
    }),
  );
  const clientId = await ctx.wait(client.ready(CLIENT_START_TIMEOUT_MS));
  if (!clientId) {
    rec.harness({ type: 'harness-error', phase: 'client', message: 'the drill client did not start' });
    return null;
  }
  rec.harness({ type: 'client-spawned', pid: clientId.pid, startTime: clientId.startTime, cmdline: readCmdline(clientId.pid) ?? [] });
  // Where the shell could not enter the cgroup, adding it now still covers what it starts later.
  if (held.cgroup && !held.cgroup.pids().includes(clientId.pid) && !held.cgroup.addPid(clientId)) held.cgroup = null;
  const { cgroup } = held;
  const subreapers = recordHolder(ctx, client);
  const tracker = recordedTracker(ctx, clientId, cgroup, subreapers);
  held.tracker = tracker;
  ctx.extensions.tracking(tracker);
  tracker.start();
  rec.harness({ type: 'tracking', tracking: tracker.tracking() });
  return { client, clientId, cgroup, tracker };
}

/** Records the client's holder (or why there is none); the holder as the drill's subreaper when it is one. */
function recordHolder({ rec }: DrillContext, client: DrillClient): ProcIdentity[] {
  const holder = client.holder;
  if (holder?.identity) {
    const subreaper = holder.subreaper?.ok === true;
    const reason = holder.subreaper && !holder.subreaper.ok ? holder.subreaper.reason : subreaper ? undefined : 'the holder did not report';
    rec.harness({ type: 'holder', pid: holder.identity.pid, startTime: holder.identity.startTime, subreaper, ...(reason ? { reason } : {}) });
  } else {
    rec.harness({ type: 'holder', pid: null, startTime: null, subreaper: false, reason: holderUnavailable() ?? 'the holder did not start' });
  }
  return holder?.identity && holder.subreaper?.ok ? [holder.identity] : [];
}
