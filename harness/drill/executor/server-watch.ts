/**
 * The drill's server: who it is (the client's direct child, or the real server below a
 * launcher), when it exited, and which report of that exit counts. Two sources report it: the
 * client, which reaps its direct child and reads the status, and the observer (a 2 ms watch,
 * and synchronous looks when the server's stderr ends, the holder gets a SIGCHLD, and at the
 * snapshot). The exit is recorded once, as a `server-exit` event.
 */
import type { ClientEvent } from '../../shared/protocol.js';
import { checkExit, findRealServerNow, pollExit, readCmdline, type ExitObservation, type ProcIdentity } from '../../observe/index.js';
import type { EvidenceRecorder } from './recorder.js';

/**
 * How long an exit the observer saw waits for the living client's report of its status. The
 * report follows the reaping within a millisecond or two; the bound only matters for a client
 * that dies in between.
 */
const CLIENT_STATUS_WAIT_MS = 500;

type ObservedBy = 'client' | 'observer';

export interface ServerWatchHooks {
  /** Whether the client lives (while it does, it is the server's parent and reaps it). */
  clientAlive(): boolean;
  /** The server's exit may leave the drill quiet: the tracker, if there is one yet, looks again. */
  recheckQuiet(): void;
}

export class ServerWatch {
  private current: ProcIdentity | null = null;
  /** The direct child when it is only a launcher (npx, sh -c, ...) in front of the real server. */
  private wrapper: ProcIdentity | null = null;
  private done = false;
  private launcherDone = false;
  /** When the server's exit was seen (recorded). */
  private exitT = 0;
  /** An exit the observer saw while the client (the server's parent) had not reported its status yet. */
  private observed: { obs: ExitObservation; timer: NodeJS.Timeout } | null = null;
  private clientSignalled = false;
  private resolveExit: () => void = () => {};
  /** Resolves when the server's exit is recorded. */
  readonly exit = new Promise<void>((resolve) => (this.resolveExit = resolve));
  private readonly watches = new AbortController();

  constructor(
    private readonly rec: EvidenceRecorder,
    private readonly hooks: ServerWatchHooks,
  ) {
    // A client SIGKILLed (crash) or SIGSTOPped (hang) no longer reaps its server or reports on it.
    // A client that quit (close) no longer does either.
    rec.onEvent((event) => {
      if ((event.type === 'kill' && event.signal !== null) || event.type === 'client-quit') this.clientSignalled = true;
    });
  }

  /** The server as known now: the client's direct child, or the real server below a launcher. */
  get server(): ProcIdentity | null {
    return this.current;
  }

  /** The process the client spawned: the server, or the launcher in front of it. */
  get directChild(): ProcIdentity | null {
    return this.wrapper ?? this.current;
  }

  /** True once the server's exit is recorded. */
  get exited(): boolean {
    return this.done;
  }

  /** The client's report of its direct child: spawned, or reaped. */
  clientEvent(event: ClientEvent): void {
    if (event.type === 'subject-spawned' && event.startTime !== null) {
      this.current = { pid: event.pid, startTime: event.startTime };
      this.watch(this.current);
    }
    // The client reaps its direct child: that is the server's exit unless the child is only a launcher.
    if (event.type === 'subject-exit' && !this.wrapper)
      this.onExit('client', { t: event.t, how: 'gone', exitStatus: { code: event.code, signal: event.signal } }, this.current);
    else if (event.type === 'subject-exit') this.launcherExit({ t: event.t, how: 'gone', exitStatus: { code: event.code, signal: event.signal } }, 'client');
  }

  /**
   * A subject started through npx, uvx or sh -c is a chain: npm exec -> sh -> node. The real
   * server is the first process down the chain, past the launchers, on the same stdin/stdout
   * pipes (observe/wrapper.ts). Its exit is the one that counts: the SDK client's SIGTERM
   * reaches only the launcher (typescript-sdk #2023), and the server below can live on.
   */
  findRealServer(): void {
    if (!this.current || this.done) return;
    const real = findRealServerNow(this.current);
    if (real.pid === this.current.pid && real.startTime === this.current.startTime) return;
    this.wrapper = this.current;
    this.current = real;
    this.rec.harness({ type: 'real-server', pid: real.pid, startTime: real.startTime, cmdline: readCmdline(real.pid) ?? [], wrapper: this.wrapper });
    this.watch(real);
    // The launcher's status is the evidence left of the server's when the server's own parent (sh,
    // npm) reaps it before the watch catches its zombie: a launcher exits with its child's status
    // (results/exit-info.ts). The holder leaves it a zombie once the client is gone, so it is read.
    const launcher = this.wrapper;
    void pollExit(launcher, { intervalMs: 2, signal: this.watches.signal }).then((obs) => obs && this.launcherExit(obs, 'observer'));
  }

  /** Recorded once, with a status when either witness read one: the client's report, or its zombie. */
  private launcherExit(obs: ExitObservation, by: ObservedBy): void {
    const launcher = this.wrapper;
    if (!launcher || this.launcherDone) return;
    // Reaped by the living client, which reports the status in a moment: wait for that report.
    if (!obs.exitStatus && !this.clientSignalled && this.hooks.clientAlive()) return;
    this.launcherDone = true;
    // A launcher that waited for the server exits after it: the server is gone by now, so its
    // exit is recorded first; one still alive is recorded after (the launcher did not wait).
    this.look();
    const status = obs.exitStatus ?? { code: null, signal: null };
    const t = this.done ? Math.max(obs.t, this.exitT) : obs.t;
    this.rec.harness({ type: 'launcher-exit', ...launcher, code: status.code, signal: status.signal }, t, by);
  }

  /**
   * The server's stderr ended: it has most likely just exited. Look at once, and once more on
   * the next turns (the kernel closes a process's files a moment before it becomes a zombie);
   * the 2 ms watch stays the fallback for a server whose stderr outlives it or ends before it.
   */
  stderrEnded(): void {
    let tries = 3;
    const look = (): void => {
      this.look();
      if (!this.done && --tries > 0) setImmediate(look);
    };
    look();
  }

  /**
   * The holder got a SIGCHLD: after a crash the server is its child (re-parented), and so is
   * every orphan of the drill, so an exit is seen the moment it is a zombie, not at the next
   * 2 ms poll; and a drill that became quiet with it ends its wait now.
   */
  holderChild(): void {
    const known = this.done;
    this.look();
    // A server exit seen just now has already had the drill looked at (record).
    if (known || !this.done) this.hooks.recheckQuiet();
  }

  /** A last synchronous look, so an exit the 2 ms watch has not noticed yet is not missed. */
  look(): void {
    this.lookAtLauncher();
    if (!this.current || this.done) return;
    const obs = checkExit(this.current);
    if (obs) this.onExit('observer', obs, this.current);
  }

  /**
   * The launcher's exit, looked at with the server's: a drill whose server exited may end (quiet)
   * before the launcher's 2 ms watch ticks, and the holder's SIGCHLD for the launcher comes here.
   */
  private lookAtLauncher(): void {
    if (!this.wrapper || this.launcherDone) return;
    const obs = checkExit(this.wrapper);
    if (obs) this.launcherExit(obs, 'observer');
  }

  /** While an exit the observer saw waits for the client's report: resolves once it is recorded. Null when none waits. */
  pendingExit(): Promise<void> | null {
    return this.observed && !this.done ? this.exit : null;
  }

  /** Containment is about to change everything: an exit still waiting for the client's report is recorded now, as seen. */
  settleNow(): void {
    if (!this.observed || this.done) return;
    clearTimeout(this.observed.timer);
    this.record('observer', this.observed.obs);
  }

  /** Ends the 2 ms watches. */
  stop(): void {
    this.lookAtLauncher();
    this.watches.abort();
  }

  private watch(id: ProcIdentity): void {
    void pollExit(id, { intervalMs: 2, signal: this.watches.signal }).then((obs) => obs && this.onExit('observer', obs, id));
  }

  private onExit(observedBy: ObservedBy, obs: ExitObservation, id: ProcIdentity | null): void {
    if (this.done || !this.current || !id || id.pid !== this.current.pid || id.startTime !== this.current.startTime) return;
    // While the client lives it is the server's parent and reaps it: its report carries the exit
    // status, which an observer that finds the process already reaped cannot read (a close drill
    // then said `unknown, code null` of a server that exited 0). The observer's sighting waits for
    // that report, at most CLIENT_STATUS_WAIT_MS, and keeps its own earlier time.
    if (observedBy === 'observer' && !obs.exitStatus && this.clientReapsServer()) {
      this.observed ??= { obs, timer: setTimeout(() => this.record('observer', obs), CLIENT_STATUS_WAIT_MS) };
      return;
    }
    const seen = this.observed;
    if (seen) {
      clearTimeout(seen.timer);
      if (observedBy === 'client' && seen.obs.t < obs.t) obs = { ...obs, t: seen.obs.t };
    }
    this.record(observedBy, obs);
  }

  /** The client is alive and the server its own child (no launcher between them): the client will report the exit status. */
  private clientReapsServer(): boolean {
    return !this.wrapper && !this.clientSignalled && this.hooks.clientAlive();
  }

  private record(observedBy: ObservedBy, obs: ExitObservation): void {
    if (this.done || !this.current) return;
    this.done = true;
    this.exitT = obs.t;
    const status = obs.exitStatus ?? { code: null, signal: null };
    this.rec.harness({ type: 'server-exit', ...this.current, code: status.code, signal: status.signal, observedBy }, obs.t, observedBy);
    this.resolveExit();
    // A server that ended its children before it exited leaves the drill quiet now.
    this.hooks.recheckQuiet();
  }
}
