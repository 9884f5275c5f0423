/**
 * The drill executor: starts the drill client, reaches the kill point, kills the client in the
 * drill's mode, watches what the server does, takes the final snapshot and contains everything.
 * It records evidence and never decides a verdict (that is harness/checks).
 */
import { rm } from 'node:fs/promises';
import type { ClientEvent } from '../../client/protocol.js';
import { makeDrillTemp } from './temp-folder.js';
import { envTemplateNames, renderScenario, type LossMode, type Scenario } from '../../config/index.js';
import type { DrillEvidence, DrillMeta } from '../../evidence/types.js';
import {
  cgroupSupport,
  createDrillCgroup,
  DrillTracker,
  drillIdFor,
  identify,
  identityKey,
  inventory,
  readCmdline,
  findRealServerNow,
  checkExit,
  pollExit,
  startTimeToMono,
  type DrillCgroup,
  type ExitObservation,
  type ProcIdentity,
} from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { CLIENT_START_TIMEOUT_MS, SETUP_ENDED, startCommand } from '../client/client-process.js';
import { createDrillClient, defaultClientKind, type DrillClient } from '../client/drill-client.js';
import { holderUnavailable } from '../holder/holder.js';
import { reachPoint } from './points.js';
import { EvidenceRecorder } from './recorder.js';
import { RemoteLink } from './remote-link.js';
import { recoveryRetry } from './retry.js';
import { interceptEnv } from '../../preload/index.js';
import { containDrill } from './containment.js';
import { recordProcessFacts, recordStartFacts } from './diagnosis-facts.js';
import { endTarget } from './kill.js';
import { DrillContainers } from '../../containers/index.js';
import { abortable, Interrupted } from '../../util/abortable.js';
import type { PlannedDrill } from '../../plan/types.js';
import type { ExecuteOptions } from './types.js';

const STDERR_DRAIN_MS = 300;

/**
 * How long an exit the observer saw waits for the living client's report of its status. The
 * report follows the reaping within a millisecond or two; the bound only matters for a client
 * that dies in between.
 */
const CLIENT_STATUS_WAIT_MS = 500;

export function drillMeta(drill: PlannedDrill, drillId: string): DrillMeta {
  const { scenario } = drill;
  return {
    drillId,
    scenario: scenario.id,
    subject: { name: scenario.subject.name, command: scenario.subject.command, args: scenario.subject.args },
    point: drill.point,
    mode: drill.mode,
    expect: expectOptions(scenario.expect),
    correlationId: `${drillId}:${scenario.target.call}`,
    key: drill.key,
    target: scenario.target.call,
    protocol: scenario.protocol,
    ...(drill.mode === 'cancel' ? { cancel: scenario.cancel } : {}),
  };
}

/** Every check option the scenario has, so a new check's option reaches its check without an edit here. */
function expectOptions({ extra: _raw, ...options }: Scenario['expect']): DrillMeta['expect'] {
  return options;
}

export async function executeDrill(drill: PlannedDrill, opts: ExecuteOptions): Promise<DrillEvidence> {
  const drillId = drillIdFor(opts.runId, drill.index);
  const rec = new EvidenceRecorder(drillMeta(drill, drillId), drill.scenario.record);
  if (opts.onEvent) rec.onEvent(opts.onEvent);
  rec.harness({ type: 'drill-start', meta: rec.meta, wall: new Date().toISOString() });
  const run = new DrillRun(drill, drillId, rec, opts);
  try {
    await run.drive();
  } catch (error) {
    if (error instanceof Interrupted)
      rec.harness({ type: 'harness-error', phase: 'interrupted', message: 'the harness was interrupted; the drill was contained' });
    else rec.harness({ type: 'harness-error', phase: 'harness', message: errorMessage(error) });
  } finally {
    await run.containAndClean();
    rec.finish();
    rec.harness({ type: 'drill-end' });
  }
  return rec.evidence();
}

class DrillRun {
  private tmp: string | null = null;
  private cgroup: DrillCgroup | null = null;
  private tracker: DrillTracker | null = null;
  private client: DrillClient | null = null;
  private clientId: ProcIdentity | null = null;
  private server: ProcIdentity | null = null;
  /** The direct child when it is only a launcher (npx, sh -c, ...) in front of the real server. */
  private wrapper: ProcIdentity | null = null;
  private serverExited = false;
  /** An exit the observer saw while the client (the server's parent) had not reported its status yet. */
  private observedExit: { obs: ExitObservation; timer: NodeJS.Timeout } | null = null;
  private clientSignalled = false;
  private resolveServerExit!: () => void;
  private readonly serverExit = new Promise<void>((resolve) => (this.resolveServerExit = resolve));
  private readonly watches = new AbortController();
  private link: RemoteLink | null = null;
  private scenario: Scenario | null = null;
  /** The recovery retry's clients: their holders stay until the drill is contained. */
  private readonly retryClients: DrillClient[] = [];
  /** Containers of the drill (harness/containers/): five hooks, each marked `containers:`. */
  private readonly containers: DrillContainers;

  constructor(
    private readonly drill: PlannedDrill,
    private readonly drillId: string,
    private readonly rec: EvidenceRecorder,
    private readonly opts: ExecuteOptions,
  ) {
    this.containers = new DrillContainers(drillId, rec);
    // A client SIGKILLed (crash) or SIGSTOPped (hang) no longer reaps its server or reports on it.
    rec.onEvent((event) => {
      if (event.type === 'kill' && event.signal !== null) this.clientSignalled = true;
    });
  }

  async drive(): Promise<void> {
    const { rec, drill } = this;
    // Synchronous: one mkdir, well under a millisecond, with no turn in the thread pool (which the
    // remote's /proc reads share). From the drill's start to its go line it measured about 8 ms
    // either way here: the event loop had other work queued there too.
    this.tmp = makeDrillTemp(this.drillId);
    let remote;
    try {
      remote = await this.opts.remoteFor(drill.scenario);
    } catch (error) {
      rec.harness({ type: 'harness-error', phase: 'config', message: errorMessage(error) });
      return;
    }
    this.link = new RemoteLink(remote, this.drillId, drill.scenario.remote, rec, () => this.tracker?.live().map((p) => p.pid) ?? []);
    let scenario: Scenario;
    try {
      scenario = this.render(this.link.session.token);
    } catch (error) {
      rec.harness({ type: 'harness-error', phase: 'config', message: errorMessage(error) });
      return;
    }
    this.scenario = scenario;
    if (!(await this.startClient(scenario))) return;
    if (!(await this.handshake(scenario))) return;

    const outcome = await this.interruptible(
      reachPoint(drill.point, {
        client: this.client!,
        tracker: this.tracker!,
        scenario,
        server: () => this.server,
        serverExit: this.serverExit,
        serverGone: () => this.serverExited,
        remote: this.link,
      }),
    );
    if (!outcome.reached) {
      rec.harness({ type: 'point-timeout', point: drill.point, timeoutMs: scenario.timeouts.point, reason: outcome.reason });
      return;
    }
    rec.harness({ type: 'point-reached', point: drill.point, detail: outcome.detail });
    // The server's request was held at the remote while the client died (or cancelled); endTarget lets it go on.
    const link = this.link;
    const ended = await endTarget(drill.mode, {
      client: this.client!,
      clientId: this.clientId!,
      scenario,
      rec,
      wait: (p) => this.interruptible(p),
      releaseGate: () => link.releaseGate(),
      recordRemoteState: () => link.recordState('cancel-window'),
    });
    // A cancel drill without a later kill ends here: its client never got lost (harness/drill/executor/kill.ts).
    if (ended === null || ended.mode === 'cancel') return;
    const { mode, lossAt } = ended;
    await this.interruptible(this.revokeAfterLoss(scenario, lossAt));
    await this.observe(scenario, lossAt, mode);
    if (scenario.retry && mode !== 'hang') {
      const retryScenario = this.render(this.link.openRetrySession().token);
      await this.interruptible(
        recoveryRetry({
          drillId: this.drillId,
          scenario: retryScenario,
          rec,
          cgroup: this.cgroup,
          correlationId: rec.meta.correlationId,
          env: this.subjectEnv(retryScenario, this.link.retrySession!.token),
          client: this.opts.client ?? defaultClientKind(),
          onClient: (client) => this.retryClients.push(client),
        }),
      );
      // Orphans of the retry are re-parented to its own holder, which stays until containment.
      for (const client of this.retryClients) if (client.holder?.identity && client.holder.subreaper?.ok) this.tracker!.addSubreaper(client.holder.identity);
    }
  }

  /** The scenario with this drill's templates filled in; the retry renders it again with its own token. */
  private render(token: string): Scenario {
    const link = this.link!;
    // A value read through {{env.NAME}} is most often a credential (init --from-client writes them): never in the evidence.
    for (const name of envTemplateNames(this.drill.scenario)) {
      const value = process.env[name];
      if (value) this.rec.addSecret(value);
    }
    // containers: a `docker run` subject gets the drill's label (the change is recorded).
    return this.containers.label(
      renderScenario(this.drill.scenario, {
        runId: this.drillId,
        tmp: this.tmp!,
        scenarioDir: this.drill.scenario.dir,
        remoteUrl: link.url,
        remoteApiKey: link.apiKey,
        sessionToken: token,
      }),
    );
  }

  /** The subject environment (docs/design.md, "Contracts"): the drill id, the remote and the session's token. */
  private subjectEnv(scenario: Scenario, token: string): Record<string, string> {
    const intercept = scenario.remote.intercept.length > 0 ? interceptEnv(scenario.remote.intercept, scenario.subject.env.NODE_OPTIONS) : {};
    return { ...scenario.subject.env, ...intercept, CRASH_DRILL_RUN: this.drillId, CRASH_DRILL_REMOTE_URL: this.link!.url, CRASH_DRILL_TOKEN: token };
  }

  /** Revocation after the client is lost (by default at once), then the probe with the revoked token. */
  private async revokeAfterLoss(scenario: Scenario, lossAt: number): Promise<void> {
    const wait = lossAt + scenario.remote.revokeAfter - monoNow();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    await this.link!.revoke('harness');
  }

  private async startClient(scenario: Scenario): Promise<boolean> {
    const { rec } = this;
    // The cgroup comes first: the client is born into it (client-process.ts).
    if (cgroupSupport().available) this.cgroup = createDrillCgroup(this.drillId);
    // The client process, or the SDK client in this process over the server's pipes (drill-client.ts).
    this.client = createDrillClient(
      this.opts.client ?? defaultClientKind(),
      this.drillId,
      {
        onEvent: (event) => this.onClientEvent(event),
        onSubjectStderr: (text) => rec.harness({ type: 'subject-stderr', text }),
        onSubjectStderrEnd: () => this.onServerStderrEnd(),
        onHolderChild: () => this.onHolderChild(),
        onClientStderr: (text) => rec.harness({ type: 'client-stderr', text }),
      },
      this.cgroup?.path,
      this.opts.holders,
    ).client;
    // Sent at once: the client spawns the server while it is still loading the SDK.
    // Cancel drills ask for progress on the target call, so silent-after-cancel can see it (a token changes what some servers send).
    this.client.send(
      startCommand(scenario, this.subjectEnv(scenario, this.link!.session.token), this.rec.meta.correlationId, { progressToken: this.drill.mode === 'cancel' }),
    );
    this.clientId = await this.interruptible(this.client.ready(CLIENT_START_TIMEOUT_MS));
    if (!this.clientId) {
      rec.harness({ type: 'harness-error', phase: 'client', message: 'the drill client did not start' });
      return false;
    }
    rec.harness({ type: 'client-spawned', pid: this.clientId.pid, startTime: this.clientId.startTime, cmdline: readCmdline(this.clientId.pid) ?? [] });
    // Where the shell could not enter the cgroup, adding it now still covers what it starts later.
    if (this.cgroup && !this.cgroup.pids().includes(this.clientId.pid) && !this.cgroup.addPid(this.clientId)) this.cgroup = null;
    const holder = this.client.holder;
    if (holder?.identity) {
      const subreaper = holder.subreaper?.ok === true;
      const reason = holder.subreaper && !holder.subreaper.ok ? holder.subreaper.reason : subreaper ? undefined : 'the holder did not report';
      rec.harness({ type: 'holder', pid: holder.identity.pid, startTime: holder.identity.startTime, subreaper, ...(reason ? { reason } : {}) });
    } else {
      rec.harness({ type: 'holder', pid: null, startTime: null, subreaper: false, reason: holderUnavailable() ?? 'the holder did not start' });
    }
    const subreapers = holder?.identity && holder.subreaper?.ok ? [holder.identity] : [];
    this.tracker = new DrillTracker({
      drillId: this.drillId,
      root: this.clientId,
      cgroup: this.cgroup,
      subreapers,
      sampleIntervalMs: this.opts.sampleIntervalMs ?? 20,
    });
    this.tracker.on('new', (p) =>
      rec.harness(
        {
          type: 'process-new',
          pid: p.pid,
          startTime: p.startTime,
          // When it started, on the drill's clock (its start time, 10 ms resolution): a process seen late was not started late.
          startedAt: Math.round(startTimeToMono(p.startTime)),
          ppid: p.ppid,
          pgid: p.pgid,
          cmdline: p.cmdline,
          foundBy: p.foundBy,
        },
        p.firstSeen,
        'observer',
      ),
    );
    this.tracker.on('exit', (p) => rec.harness({ type: 'process-exit', pid: p.pid, startTime: p.startTime }, p.exitedAt ?? monoNow(), 'observer'));
    this.tracker.on('reparented', (p, from) =>
      rec.harness(
        { type: 'process-reparented', pid: p.pid, startTime: p.startTime, from, to: p.ppid, toHolder: subreapers.some((h) => h.pid === p.ppid) },
        monoNow(),
        'observer',
      ),
    );
    this.tracker.on('unattributed', (p) => rec.harness({ type: 'process-unattributed', ...p }, p.firstSeen, 'observer'));
    this.containers.attach(this.tracker); // containers: engine CLI processes among the members
    this.tracker.start();
    rec.harness({ type: 'tracking', tracking: this.tracker.tracking() });
    return true;
  }

  private async handshake(scenario: Scenario): Promise<boolean> {
    const { rec } = this;
    const answer = await this.interruptible(this.client!.waitFor((e) => SETUP_ENDED.has(e.type), scenario.timeouts.handshake));
    if (answer?.type === 'setup-done') {
      this.findRealServer();
      recordStartFacts(rec, this.server, this.link?.secrets() ?? []); // diagnosis: runtime and SDK
      await this.interruptible(this.containers.afterHandshake(this.server)); // containers: the subject's own container
      return true;
    }
    const message = !answer
      ? this.serverExited
        ? 'the server exited before the handshake and setup completed'
        : `initialize and setup did not complete within ${scenario.timeouts.handshake} ms`
      : answer.type === 'spawn-error'
        ? `the server command could not be started: ${answer.message}`
        : answer.type === 'setup-error'
          ? `setup step ${answer.step} (${answer.call}) failed: ${answer.message}`
          : `${answer.type}: ${'message' in answer ? answer.message : ''}`;
    const phase = answer?.type === 'setup-error' ? 'setup' : 'handshake';
    rec.harness({ type: 'harness-error', phase, message });
    return false;
  }

  private onClientEvent(event: ClientEvent): void {
    this.rec.client(event);
    if (event.type === 'subject-spawned' && event.startTime !== null) {
      this.server = { pid: event.pid, startTime: event.startTime };
      this.watchServer(this.server);
    }
    // The client reaps its direct child: that is the server's exit unless the child is only a launcher.
    if (event.type === 'subject-exit' && !this.wrapper)
      this.onServerExit('client', { t: event.t, how: 'gone', exitStatus: { code: event.code, signal: event.signal } }, this.server);
  }

  private watchServer(id: ProcIdentity): void {
    void pollExit(id, { intervalMs: 2, signal: this.watches.signal }).then((obs) => obs && this.onServerExit('observer', obs, id));
  }

  /**
   * A subject started through npx, uvx or sh -c is a chain: npm exec -> sh -> node. The real
   * server is the first process down the chain, past the launchers, on the same stdin/stdout
   * pipes (observe/wrapper.ts). Its exit is the one that counts: the SDK client's SIGTERM
   * reaches only the launcher (typescript-sdk #2023), and the server below can live on.
   */
  private findRealServer(): void {
    if (!this.server || this.serverExited) return;
    const real = findRealServerNow(this.server);
    if (real.pid === this.server.pid && real.startTime === this.server.startTime) return;
    this.wrapper = this.server;
    this.server = real;
    this.rec.harness({ type: 'real-server', pid: real.pid, startTime: real.startTime, cmdline: readCmdline(real.pid) ?? [], wrapper: this.wrapper });
    this.watchServer(real);
  }

  private onServerExit(observedBy: 'client' | 'observer', obs: ExitObservation, id: ProcIdentity | null): void {
    if (this.serverExited || !this.server || !id || id.pid !== this.server.pid || id.startTime !== this.server.startTime) return;
    // While the client lives it is the server's parent and reaps it: its report carries the exit
    // status, which an observer that finds the process already reaped cannot read (a close drill
    // then said `unknown, code null` of a server that exited 0). The observer's sighting waits for
    // that report, at most CLIENT_STATUS_WAIT_MS, and keeps its own earlier time.
    if (observedBy === 'observer' && !obs.exitStatus && this.clientReapsServer()) {
      this.observedExit ??= { obs, timer: setTimeout(() => this.recordServerExit('observer', obs), CLIENT_STATUS_WAIT_MS) };
      return;
    }
    const seen = this.observedExit;
    if (seen) {
      clearTimeout(seen.timer);
      if (observedBy === 'client' && seen.obs.t < obs.t) obs = { ...obs, t: seen.obs.t };
    }
    this.recordServerExit(observedBy, obs);
  }

  /** The client is alive and the server its own child (no launcher between them): the client will report the exit status. */
  private clientReapsServer(): boolean {
    return !this.wrapper && !this.clientSignalled && this.client !== null && this.client.alive;
  }

  private recordServerExit(observedBy: 'client' | 'observer', obs: ExitObservation): void {
    if (this.serverExited || !this.server) return;
    this.serverExited = true;
    const status = obs.exitStatus ?? { code: null, signal: null };
    this.rec.harness(
      { type: 'server-exit', ...this.server, code: status.code, signal: status.signal, observedBy },
      obs.t,
      observedBy === 'client' ? 'client' : 'observer',
    );
    this.resolveServerExit();
    // A server that ended its children before it exited leaves the drill quiet now.
    this.tracker?.recheckQuiet();
  }

  /** Waits on events (exits, an empty cgroup) until everything is gone or the deadline plus grace has passed. */
  private async observe(scenario: Scenario, lossAt: number, mode: LossMode): Promise<void> {
    const tracker = this.tracker!;
    const deadline = scenario.expect.exitOnEof?.deadline ?? 2000;
    if (mode === 'hang') {
      // A stopped client keeps the pipes open: nothing is expected to end. The window is the exit deadline.
      await this.interruptible(new Promise((resolve) => setTimeout(resolve, deadline)));
      this.snapshot('hang-window', false);
      await this.interruptible(this.containers.snapshot('hang-window')); // containers
      return;
    }
    const grace = scenario.expect.noSurvivors?.grace ?? 2000;
    const exclude = mode === 'close' ? [this.clientId!] : [];
    const remaining = Math.max(0, lossAt + deadline + grace - monoNow());
    // diagnosis: what holds the server up when exit-on-eof judges it; a little before the deadline,
    // where close's SIGTERM (close-wait, by default the deadline) has not yet changed anything
    const atDeadline = setTimeout(
      () => {
        if (!this.serverExited && this.server) recordProcessFacts(this.rec, 'deadline', [this.server], this.server, this.link?.secrets() ?? []);
      },
      Math.max(0, lossAt + deadline - Math.min(250, deadline / 10) - monoNow()),
    );
    const quiet = await this.interruptible(tracker.waitForQuiet({ exclude, timeoutMs: remaining })).finally(() => clearTimeout(atDeadline));
    // Remote jobs get the same time to settle: a job that is cancelled or done by then is fine.
    const jobs = scenario.expect.jobsSettled;
    if (jobs) await this.interruptible(this.link!.jobsSettled(Math.max(0, lossAt + deadline + jobs.grace - monoNow())));
    // An exit the observer saw is recorded once the client reported its status (or gave up).
    if (this.observedExit && !this.serverExited) await this.interruptible(this.serverExit);
    this.snapshot('grace-end', quiet && monoNow() < lossAt + deadline + grace);
    await this.interruptible(this.containers.snapshot('grace-end')); // containers
    this.link!.recordState('grace-end');
  }

  /**
   * The server's stderr ended: it has most likely just exited. Look at once, and once more on
   * the next turns (the kernel closes a process's files a moment before it becomes a zombie);
   * the 2 ms watch stays the fallback for a server whose stderr outlives it or ends before it.
   */
  private onServerStderrEnd(): void {
    let tries = 3;
    const look = (): void => {
      this.lookForServerExit();
      if (!this.serverExited && --tries > 0) setImmediate(look);
    };
    look();
  }

  /**
   * The holder got a SIGCHLD: after a crash the server is its child (re-parented), and so is
   * every orphan of the drill, so an exit is seen the moment it is a zombie, not at the next
   * 2 ms poll; and a drill that became quiet with it ends its wait now.
   */
  private onHolderChild(): void {
    const known = this.serverExited;
    this.lookForServerExit();
    // A server exit seen just now has already had the drill looked at (onServerExit).
    if (known || !this.serverExited) this.tracker?.recheckQuiet();
  }

  /** A last synchronous look, so an exit the 2 ms watch has not noticed yet is not missed. */
  private lookForServerExit(): void {
    if (!this.server || this.serverExited) return;
    const obs = checkExit(this.server);
    if (obs) this.onServerExit('observer', obs, this.server);
  }

  private snapshot(label: 'grace-end' | 'hang-window', early: boolean): void {
    this.lookForServerExit();
    const client = this.clientId ? identityKey(this.clientId) : '';
    const live = this.tracker!.sampleNow().filter((p) => identityKey(p) !== client);
    const survivors = live.flatMap((p) => inventory(p, { secrets: this.link?.secrets() ?? [], foundBy: p.foundBy }) ?? []);
    this.rec.harness({ type: 'snapshot', label, early, survivors });
    recordProcessFacts(this.rec, 'snapshot', live, this.server ?? null, this.link?.secrets() ?? []); // diagnosis, before containment
  }

  /** Containment order (docs/design.md, "Contracts"): revoke, confirm denial (the probe), SIGTERM, wait, SIGKILL only if needed. */
  async containAndClean(): Promise<void> {
    const { rec } = this;
    // An exit still waiting for the client's report is recorded before containment, as seen.
    if (this.observedExit && !this.serverExited) {
      clearTimeout(this.observedExit.timer);
      this.recordServerExit('observer', this.observedExit.obs);
    }
    rec.harness({ type: 'containment-start' });
    if (this.link) {
      await this.link.revoke('containment');
      if (this.scenario?.remote.rotateApiKey) this.link.rotateApiKey();
    }
    // A client that never reported ready may still have started the server (it is told to at
    // once): track it now, so containment reaches everything it started.
    const pid = this.client?.clientPid();
    const late = !this.tracker && pid !== undefined ? identify(pid) : null;
    const holderId = this.client?.holder?.identity;
    if (late) this.tracker = new DrillTracker({ drillId: this.drillId, root: late, cgroup: this.cgroup, subreapers: holderId ? [holderId] : [] });
    // containers: stopped first (stop --time, kill), so their engine CLIs end on their own.
    await this.containers.contain(this.opts.containTermWaitMs ?? 1000);
    if (this.tracker) await containDrill(this.tracker, rec, this.opts.containTermWaitMs ?? 1000);
    else if (this.client?.holder)
      this.client.abandon(); // the holder's watchdog ends whatever the untracked client started
    else if (this.client?.alive) this.client.child.kill('SIGKILL'); // it is gone from /proc already, or never got a pid
    this.lookForServerExit();
    this.watches.abort();
    if (this.client) {
      await this.client.closed(STDERR_DRAIN_MS);
      this.client.dispose();
      this.client.release();
    }
    for (const client of this.retryClients) client.release();
    if (this.link) {
      this.link.recordState('final');
      this.link.detach();
    }
    this.cgroup?.remove();
    if (this.tmp) await rm(this.tmp, { recursive: true, force: true });
  }

  private interruptible<T>(promise: Promise<T>): Promise<T> {
    return abortable(promise, this.opts.signal);
  }
}
