/**
 * The drill executor: starts the drill client, reaches the kill point, kills the client in the
 * drill's mode, watches what the server does, takes the final snapshot and contains everything.
 * It records evidence and never decides a verdict (that is harness/checks).
 *
 * Its phases pass values on: the start gives a started drill (start.ts), the handshake its
 * outcome (handshake.ts), the kill a lost drill for the observation window (observation.ts).
 * The server's identity and exit are the server watch's (server-watch.ts). Whatever the drill
 * holds is in its holdings, which containment ends at the end of every drill (clean-up.ts).
 */
import type { Scenario } from '../../config/index.js';
import type { DrillEvidence, DrillMeta } from '../../evidence/types.js';
import { profileFacts } from './profile-facts.js';
import { drillIdFor, readFdLink } from '../../observe/index.js';
import type { PlannedDrill } from '../../plan/types.js';
import { abortable } from '../../util/abortable.js';
import { errorMessage, Interrupted } from '../../util/errors.js';
import { launchSecrets, redact, redactArgv } from '../../util/secrets.js';
import { defaultClientKind } from '../client/drill-client.js';
import { containAndClean, type Holdings } from './clean-up.js';
import { drillCpuMeter } from './cpu-meter.js';
import { openDrillNetwork } from './drill-network.js';
import { recordStartFacts } from './diagnosis-facts.js';
import { Extensions } from './extension.js';
import { handshake } from './handshake.js';
import { endTarget } from './kill.js';
import { observeWindow, revokeAfterLoss, type LostDrill } from './observation.js';
import { reachPoint } from './points.js';
import { EvidenceRecorder } from './recorder.js';
import { RemoteLink } from './remote-link.js';
import { renderFor, subjectEnv, type RenderContext } from './render.js';
import { recoveryRetry } from './retry.js';
import { activityFileFor, watchActivity } from './activity-watch.js';
import { ServerWatch } from './server-watch.js';
import { startDrill, type StartedDrill } from './start.js';
import { makeDrillTemp } from './temp-folder.js';
import type { DrillContext, ExecuteOptions } from './types.js';

export function drillMeta(drill: PlannedDrill, drillId: string): DrillMeta {
  const { scenario } = drill;
  const { name, command, args } = scenario.subject;
  // The command line is shown in every report: its secrets read as placeholders (harness/util/secrets.ts).
  const secrets = launchSecrets(scenario.subject);
  return {
    drillId,
    scenario: scenario.id,
    subject: { name: redact(name, secrets), command: redact(command, secrets), args: redactArgv(args, secrets) },
    point: drill.point,
    mode: drill.mode,
    expect: expectOptions(scenario.expect),
    correlationId: `${drillId}:${scenario.target?.call ?? ''}`,
    key: drill.key,
    ...(scenario.target ? { target: scenario.target.call } : {}),
    protocol: scenario.protocol,
    ...(drill.mode === 'cancel' ? { cancel: scenario.cancel } : {}),
    clientProfile: drill.profile,
  };
}

/** Every check option the scenario has, so a new check's option reaches its check without an edit here. */
function expectOptions({ extra: _raw, ...options }: Scenario['expect']): DrillMeta['expect'] {
  return options;
}

export async function executeDrill(drill: PlannedDrill, opts: ExecuteOptions): Promise<DrillEvidence> {
  const drillId = drillIdFor(opts.runId, drill.index);
  const rec = new EvidenceRecorder(drillMeta(drill, drillId), drill.scenario.record);
  for (const secret of launchSecrets(drill.scenario.subject)) rec.addSecret(secret.value, secret.from);
  if (opts.onEvent) rec.onEvent(opts.onEvent);
  rec.harness({ type: 'drill-start', meta: rec.meta, wall: new Date().toISOString() });
  rec.harness({ type: 'client-profile', profile: profileFacts(drill) });
  const extensions = new Extensions((opts.extensions ?? []).map((make) => make({ drillId, rec })));
  const ctx: DrillContext = { drill, drillId, rec, opts, extensions, wait: (promise) => abortable(promise, opts.signal) };
  const held: Holdings = { cgroup: null, retryClients: [] };
  const watch = new ServerWatch(rec, { clientAlive: () => held.client?.alive === true, recheckQuiet: () => held.tracker?.recheckQuiet() });
  try {
    await drive(ctx, held, watch);
  } catch (error) {
    if (error instanceof Interrupted)
      rec.harness({ type: 'harness-error', phase: 'interrupted', message: 'the harness was interrupted; the drill was contained' });
    else rec.harness({ type: 'harness-error', phase: 'harness', message: errorMessage(error) });
  } finally {
    await containAndClean(ctx, held, watch);
    rec.finish();
    rec.harness({ type: 'drill-end' });
  }
  return rec.evidence();
}

async function drive(ctx: DrillContext, held: Holdings, watch: ServerWatch): Promise<void> {
  const { rec, drill, drillId, wait } = ctx;
  // Synchronous: one mkdir, well under a millisecond, with no turn in the thread pool (which the
  // remote's /proc reads share). From the drill's start to its go line it measured about 8 ms
  // either way here: the event loop had other work queued there too.
  const tmp = makeDrillTemp(drillId);
  held.tmp = tmp;
  let remote;
  try {
    remote = await ctx.opts.remoteFor(drill.scenario);
  } catch (error) {
    rec.harness({ type: 'harness-error', phase: 'config', message: errorMessage(error) });
    return;
  }
  const candidates = (): number[] => held.tracker?.live().map((p) => p.pid) ?? [];
  const link = new RemoteLink(remote, drillId, drill.scenario.remote, rec, candidates);
  held.link = link;
  try {
    await wait(link.prepareTls(drill.scenario, ctx.opts.trustFiles)); // the run's CA files and the intercept proxy
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    rec.harness({ type: 'harness-error', phase: 'config', message: errorMessage(error) });
    return;
  }
  if (drill.scenario.network === 'loopback') {
    try {
      await wait(openDrillNetwork(drillId, rec, link, candidates, (network) => (held.network = network)));
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      rec.harness({ type: 'harness-error', phase: 'network', message: errorMessage(error) });
      return;
    }
  }
  const render: RenderContext = { drill, drillId, rec, extensions: ctx.extensions, tmp, link, network: held.network };
  let scenario: Scenario;
  try {
    scenario = renderFor(render, link.session.token);
  } catch (error) {
    rec.harness({ type: 'harness-error', phase: 'config', message: errorMessage(error) });
    return;
  }
  held.scenario = scenario;
  held.activity = watchActivity(ctx, scenario, link, watch, () => held.client?.drainSubjectStderr(), activityFileFor(tmp, 'drill'));
  const started = await startDrill(ctx, held, scenario, link, watch);
  if (!started) return;
  ctx.opts.onCpuMeter?.(drillCpuMeter(started.cgroup, started.tracker));
  const shaken = await handshake(started.client, scenario, () => watch.exited, wait);
  if (!shaken.done) {
    rec.harness({ type: 'harness-error', phase: shaken.phase, message: shaken.message });
    return;
  }
  watch.findRealServer();
  const { client, clientId, tracker } = started;
  // The server answered, so it exists, with any launcher in front of it: make every process there
  // is now a member before the target call goes out. The drill remote names a connection's sender
  // from the drill's members, synchronously at accept (remote/attribution/attributor.ts); a server
  // forked after the tracker's first sample and first seen by its next tick (up to one interval
  // later, while the handshake takes a few ms) could connect before that tick, be refused, close
  // its socket during the remote's slower scan of every process and leave the refusal tied to no
  // drill (two CI runs: the not-listed drill's outside entry missing, its server's process-new
  // recorded 3 ms after the dispatch).
  tracker.sampleNow();
  recordStartFacts(rec, watch.server, rec.knownSecrets()); // diagnosis: runtime and SDK
  // The server's ends of its stdio as the client gave them (the direct child's fds 0-2): what a close
  // drill's quit can reach in a process that holds one (observation.ts).
  const direct = watch.directChild;
  const stdio = direct ? [0, 1, 2].map((fd) => readFdLink(direct.pid, fd)) : [];
  rec.harness({ type: 'subject-stdio', links: stdio });
  await ctx.extensions.afterHandshake(watch.server, wait);

  const outcome = await wait(
    reachPoint(drill.point, { client, tracker, scenario, server: () => watch.server, serverExit: watch.exit, serverGone: () => watch.exited, remote: link }),
  );
  if (!outcome.reached) {
    rec.harness({ type: 'point-timeout', point: drill.point, timeoutMs: scenario.timeouts.point, reason: outcome.reason });
    return;
  }
  rec.harness({ type: 'point-reached', point: drill.point, detail: outcome.detail, ...(outcome.process ? { process: outcome.process } : {}) });
  // Every process there is at the kill, seen with the parent it has now: a child the server started
  // just before (after-response's spawn-helper) is otherwise first seen after the server exited on
  // EOF, re-parented to the subreaper, and its diagnosis cannot say the server started it.
  tracker.sampleNow();
  // The server's request was held at the remote while the client died (or cancelled); endTarget lets it go on.
  const ended = await endTarget(drill.mode, {
    client,
    clientId,
    scenario,
    rec,
    wait,
    releaseGate: () => link.releaseGate(),
    recordRemoteState: () => link.recordState('cancel-window'),
    profile: profileFacts(drill),
    directChild: () => watch.directChild,
  });
  // A cancel drill without a later kill ends here: its client never got lost (harness/drill/executor/kill.ts).
  if (ended === null || ended.mode === 'cancel') return;
  const lost: LostDrill = {
    started,
    scenario,
    link,
    watch,
    lossAt: ended.lossAt,
    mode: ended.mode,
    profile: profileFacts(drill),
    stdio: stdio.filter((l): l is string => l !== null),
  };
  await wait(revokeAfterLoss(lost));
  await observeWindow(ctx, lost);
  held.activity?.read('window-end');
  if (scenario.retry && lost.mode !== 'hang') await retry(ctx, held, render, started);
}

/** The recovery retry (retry.ts), with its own session and its scenario rendered for it. */
async function retry(ctx: DrillContext, held: Holdings, render: RenderContext, started: StartedDrill): Promise<void> {
  const { rec, drillId, opts } = ctx;
  const session = render.link.openRetrySession();
  const scenario = renderFor(render, session.token, 'retry');
  await ctx.wait(
    recoveryRetry({
      drillId,
      scenario,
      rec,
      cgroup: started.cgroup,
      correlationId: rec.meta.correlationId,
      env: subjectEnv(scenario, drillId, render.link, session.token),
      client: opts.client ?? defaultClientKind(),
      profile: profileFacts(ctx.drill),
      onClient: (client) => held.retryClients.push(client),
    }),
  );
  // Orphans of the retry are re-parented to its own holder, which stays until containment.
  for (const client of held.retryClients) if (client.holder?.identity && client.holder.subreaper?.ok) started.tracker.addSubreaper(client.holder.identity);
}
