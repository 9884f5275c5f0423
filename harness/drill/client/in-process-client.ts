/**
 * The in-process client (`--client inprocess`): the SDK client of the drill runs in the
 * harness process, over the server's pipes, so a drill costs one Node process (the server's)
 * instead of two. The server's parent is a stand-in (stand-in.pl) below the drill's
 * holder: harness -> holder (subreaper, watchdog) -> stand-in -> server. The holder outlives
 * the stand-in, so every orphan of the drill is re-parented to it, as with a client process.
 *
 * The stand-in plays the client's part in the process tree: it is the tracker's root, the
 * process the crash SIGKILLs and the hang SIGSTOPs. What the server sees is what it sees when
 * a client process dies (harness/drill/executor/kill.ts calls onLoss in the same tick as the signal):
 * - crash: the harness closes its ends of the server's stdin and stdout, and the stand-in is
 *   SIGKILLed: EOF, EPIPE and re-parenting at once; a piped stderr's end closes at the exit
 *   deadline (releaseStderr);
 * - hang: the harness stops reading and writing (the pipes stay open) and the stand-in is
 *   SIGSTOPped;
 * - stop and close: the client profile's stop sequence (harness/shared/stop-steps.ts), its
 *   signals sent by identity; close then quits as `exit` does;
 * - abandon: nothing: the harness keeps its ends of the pipes and reads on.
 * The server is spawned as the drill's client profile spawns it (its environment, group or
 * session, parent-death signal: stand-in.pl), and its stderr is read as that client reads it:
 * a piped stderr's reading end is the client's, so it closes when the client dies or quits.
 * After a crash or a hang the session is muted: a dead or stopped client reports nothing more.
 * The recovery retry still uses a client process (harness/drill/executor/retry.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { ClientSession } from '../../shared/client-session.js';
import type { ClientEvent, HarnessCommand, StartCommand } from '../../shared/protocol.js';
import { identify, type ProcIdentity } from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { ClientEvents, endControl, HolderReport, pipeText } from './client-base.js';
import { clientEnv } from '../../shared/client-env.js';
import { signalNumber } from '../../shared/pre-exec.js';
import type { ClientSpawn } from '../../shared/protocol.js';
import { DEFAULT_CLIENT_SPAWN } from '../../shared/spawn-subject.js';
import { fifoStdio } from '../../shared/fifo-stdio.js';
import { stderrRoom } from '../../shared/stderr-room.js';
import { prctlArgument } from '../../util/perl.js';
import { textPipe } from './text-pipe.js';
import { recordFileFor, type ClientProcessHandlers } from './client-process.js';
import { heldSubject } from './held-subject.js';
import { goLine, holderUnavailable, perlForStandIn, type HolderState } from '../holder/holder.js';
import { HolderPool, startSpareHolder } from '../holder/holder-pool.js';
import { STAND_IN_SCRIPT } from '../holder/scripts.js';
import { signalIdentity } from '../../containment/signal.js';

/** The holder's descriptors for the stand-in alone: the server's stdin, stdout, stderr and the stand-in's reports. */
export const STAND_IN_FDS = '3,4,5,6';
/** The stand-in, as the holder runs it in its fork (holder.pl): the start of its command. */
export const STAND_IN_COMMAND = ['-e', STAND_IN_SCRIPT];

/** Spare holders for in-process drills (holder-pool.ts), for a run of `drills` of them. */
export function inProcessHolderPool(drills: number): HolderPool | null {
  return inProcessUnavailable() === null && drills > 0 ? new HolderPool(STAND_IN_COMMAND, STAND_IN_FDS, drills) : null;
}
const FD = { stdin: 3, stdout: 4, stderr: 5, reports: 6 } as const;

/** Why the in-process client cannot run here (it needs the holder), or null. */
export function inProcessUnavailable(): string | null {
  return perlForStandIn() === null ? `the in-process client needs the holder: ${holderUnavailable() ?? 'unavailable'}` : null;
}

export class InProcessClient {
  child!: ChildProcess;
  identity: ProcIdentity | null = null;
  private readonly report = new HolderReport();
  readonly holder: HolderState = this.report.state;
  /** The client's events; its exit is the stand-in's (or the holder's). */
  private readonly events: ClientEvents;
  /** Hands over at once what waits in the server's stderr pipe (text-pipe.ts). */
  drainSubjectStderr: () => void = () => {};
  private session: Promise<ClientSession> | null = null;
  /** A crashed or stopped client says nothing more. */
  private muted = false;
  /** How the drill's client profile spawns the server (the start command's). */
  private spawnFacts: ClientSpawn = DEFAULT_CLIENT_SPAWN;

  constructor(
    private readonly drillId: string,
    private readonly handlers: ClientProcessHandlers,
    private readonly cgroupDir?: string,
    private readonly pool?: HolderPool | null,
  ) {
    this.events = new ClientEvents((event) => handlers.onEvent(event));
  }

  get alive(): boolean {
    return !this.events.exited;
  }

  clientPid(): number | undefined {
    return this.holder.clientPid ?? undefined;
  }

  send(command: HarnessCommand): boolean {
    if (this.events.exited || this.muted) return false;
    const fail = (error: unknown) => this.onEvent({ type: 'client-error', t: monoNow(), message: errorMessage(error) });
    switch (command.type) {
      case 'start':
        this.start(command);
        void this.session!.then((s) => s.onStart(command, this.spawned!)).catch(fail);
        break;
      case 'prepare-target':
        void this.session?.then((s) => s.onPrepareTarget()).catch(fail);
        break;
      case 'dispatch':
        void this.session?.then((s) => s.dispatch(command.holdResponses)).catch(fail);
        break;
      case 'stop':
        void this.session?.then((s) => s.onStop(command.steps)).catch(fail);
        break;
      case 'abandon':
        void this.session?.then((s) => s.onAbandon()).catch(fail);
        break;
      case 'cancel':
        void this.session?.then((s) => s.onCancel(command.followUpTimeoutMs)).catch(fail);
        break;
      case 'exit': {
        // A client process that is told to exit closes its ends of the server's pipes as it goes.
        // The stand-in is the client here; the holder stays (the drill's subreaper) until release().
        this.onLoss('crash');
        const standIn = this.identity ?? (this.holder.clientPid !== null ? identify(this.holder.clientPid) : null);
        if (standIn) signalIdentity(standIn, 'SIGTERM');
        break;
      }
    }
    return true;
  }

  private spawned: ReturnType<typeof heldSubject> | null = null;
  /** The client's ends of the server's stdin and stdout when they are real pipes (FIFOs), not the holder's socketpairs. */
  private serverEnds: { stdin: Writable; stdout: Readable } | null = null;

  /**
   * Starts holder -> stand-in -> server at once; the session (and with it the SDK, the first
   * time) loads while the server starts, and the server's early output waits in heldSubject.
   */
  private start(command: StartCommand): void {
    const { subject } = command;
    this.spawnFacts = command.client ?? DEFAULT_CLIENT_SPAWN;
    const facts = this.spawnFacts.spawn;
    const procs = this.cgroupDir ? join(this.cgroupDir, 'cgroup.procs') : '';
    const standInArgs = [subject.cwd, facts.group, String(signalNumber(facts.parentDeathSignal)), prctlArgument(), '--', subject.command, ...subject.args];
    // A holder that waits for its drill (holder-pool.ts): the run's spare, started before this
    // drill, or one started now. Either gets the drill in one line; the holder runs the stand-in
    // in its fork ("-e"), and the stand-in passes the server's environment on unchanged.
    // A client that gives real pipes (harness/shared/fifo-stdio.ts) needs a holder started with them, not a spare's socketpairs.
    const pipes = facts.stdio === 'pipe' ? fifoStdio() : null;
    try {
      this.child = pipes
        ? startSpareHolder(STAND_IN_COMMAND, STAND_IN_FDS, { [FD.stdin]: pipes.serverStdin, [FD.stdout]: pipes.serverStdout })!
        : (this.pool?.take() ?? startSpareHolder(STAND_IN_COMMAND, STAND_IN_FDS)!);
    } finally {
      pipes?.closeServerEnds();
    }
    this.serverEnds = pipes ? { stdin: pipes.stdin, stdout: pipes.stdout } : null;
    this.child.stdin!.write(
      goLine(procs, recordFileFor(this.drillId), subject.env.CRASH_DRILL_RUN ?? '', clientEnv(facts.env, process.env, subject.env), standInArgs),
    );
    this.child.on('exit', () => this.events.clientExited());
    this.child.on('error', (error) => {
      this.onEvent({ type: 'spawn-error', t: monoNow(), message: error.message });
      this.events.clientExited();
    });
    const stdio = this.child.stdio as unknown as Array<Readable | Writable | null>;
    // The holder reports the stand-in's exit on one pipe, the stand-in its own reports (ready,
    // spawn-error) on another, with no order between them: the exit counts once the stand-in's
    // reports have all been read, so a spawn error is never lost to a "did not start".
    const reports = stdio[FD.reports] as Readable;
    const reportsRead = new Promise<void>((resolve) => {
      if (reports.readableEnded || reports.destroyed) return resolve();
      reports.once('end', resolve);
      reports.once('close', resolve);
    });
    this.report.read(
      this.child,
      () => void reportsRead.then(() => this.events.clientExited()),
      () => this.handlers.onHolderChild?.(),
    );
    pipeText(this.child.stderr, (text) => this.handlers.onClientStderr(text));
    // A client that never reads its server's stderr (pipe-unread) takes only what it buffers.
    this.drainSubjectStderr = textPipe(
      stdio[FD.stderr] as Readable,
      (text) => this.handlers.onSubjectStderr(text),
      this.handlers.onSubjectStderrEnd,
      stderrRoom(facts.stderr),
    );
    this.spawned = heldSubject(
      subject.command,
      this.serverEnds?.stdin ?? (stdio[FD.stdin] as Writable),
      this.serverEnds?.stdout ?? (stdio[FD.stdout] as Readable),
      stdio[FD.reports] as Readable,
      (event) => this.onEvent(event),
      // The stand-in runs (under its own name): it is the drill's client from now on.
      (pid) => this.onEvent({ type: 'client-ready', t: monoNow(), pid }),
    );
    this.session = import('../../shared/client-session.js').then(
      ({ ClientSession }) =>
        new ClientSession(
          (event) => this.onEvent(event),
          () => !this.muted,
        ),
    );
  }

  async ready(timeoutMs: number): Promise<ProcIdentity | null> {
    const event = await this.waitFor((e) => e.type === 'client-ready', timeoutMs);
    if (!event || event.type !== 'client-ready') return null;
    // Two pipes, no order between them: wait until the holder has said whether it is a subreaper (HolderReport.known).
    await this.report.known(timeoutMs);
    this.identity = identify(event.pid);
    return this.identity;
  }

  onLoss(mode: 'crash' | 'hang'): void {
    this.muted = true;
    const stdin = this.serverEnds?.stdin ?? (this.child?.stdio[FD.stdin] as Writable | null);
    const stdout = this.serverEnds?.stdout ?? (this.child?.stdio[FD.stdout] as Readable | null);
    if (mode === 'crash') {
      // Synchronous closes of the harness's ends, right after the SIGKILL of the stand-in, in the same tick.
      // stdout first: a server that wakes on EOF and writes at once must already meet EPIPE, as
      // it does when the kernel closes a dead client's descriptors all together.
      stdout?.destroy();
      stdin?.destroy();
      // A piped stderr was the client's own pipe: its reading end dies with the client, but not
      // before the exit deadline (releaseStderr), so that no log line can end the server before
      // exit-on-eof judges it: the verdict then never depends on whether a write came first. An
      // inherited one is the client's stderr, which outlives it (the harness reads on).
      if (this.spawnFacts.spawn.stderr !== 'inherit') {
        this.stderrHeld = true;
        if (this.stderrReleased) this.releaseStderr();
      }
    } else {
      // A stopped client neither reads nor writes; its ends stay open.
      stdout?.pause();
      stdin?.cork();
    }
  }

  /** The reading end of a piped stderr, kept past the client's loss until releaseStderr. */
  private stderrHeld = false;
  private stderrReleased = false;

  /** The exit deadline has passed: a held stderr's reading end dies now, as with the client; one not yet lost dies at the loss. */
  releaseStderr(): void {
    this.stderrReleased = true;
    if (!this.stderrHeld) return;
    this.stderrHeld = false;
    ((this.child?.stdio as unknown as Array<Readable | null> | undefined)?.[FD.stderr] ?? null)?.destroy();
  }

  waitFor(match: (event: ClientEvent) => boolean, timeoutMs: number): Promise<ClientEvent | null> {
    return this.events.waitFor(match, timeoutMs);
  }

  /** Resolves once the stand-in has exited and the server's stderr reached its end, or after `timeoutMs`. */
  closed(timeoutMs: number): Promise<void> {
    const stderr = ((this.child?.stdio as unknown as Array<Readable | null> | undefined)?.[FD.stderr] as Readable | null) ?? null;
    return this.events.closed(stderr, timeoutMs);
  }

  /** Closing the holder's control pipe without "done": its watchdog ends everything below it. */
  abandon(): void {
    this.muted = true;
    endControl(this.child?.stdin);
  }

  dispose(): void {
    this.muted = true;
    this.events.flushWaiters();
    this.spawned?.shut();
    if (!this.child) return;
    for (const [fd, stream] of this.child.stdio.entries()) if (fd !== 0) stream?.destroy();
  }

  release(): void {
    endControl(this.child?.stdin, 'done\n');
  }

  /** Events from a crashed or stopped client are dropped (muted); the rest go to ClientEvents. */
  private onEvent(event: ClientEvent): void {
    if (this.muted) return;
    this.events.add(event);
  }
}
