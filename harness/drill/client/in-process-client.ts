/**
 * The in-process client (`--client inprocess`): the drill's SDK client runs in the harness over
 * the server's pipes, so a drill costs one Node process instead of two. The server's parent is a
 * stand-in (stand-in.pl) below the drill's holder, so orphans are re-parented to the holder as
 * with a client process. The stand-in is what the crash SIGKILLs and the hang SIGSTOPs; onLoss
 * does to the pipes what a dead or stopped client does (harness/drill/executor/kill.ts calls it
 * in the same tick as the signal). The recovery retry still uses a client process.
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
        // The holder stays (the drill's subreaper) until release().
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
    // The run's spare holder (holder-pool.ts) or a new one; a client that gives real pipes
    // (harness/shared/fifo-stdio.ts) needs a holder started with them, not a spare's socketpairs.
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
    // The exit and the stand-in's reports come on two pipes in no order: the exit counts once
    // the reports are read, so a spawn error is never lost to a "did not start".
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
      // stdout first: a server that wakes on EOF and writes at once must already meet EPIPE, as
      // when the kernel closes a dead client's descriptors together.
      stdout?.destroy();
      stdin?.destroy();
      // A piped stderr dies with the client, but only at the exit deadline (releaseStderr), so
      // no log line's EPIPE ends the server before exit-on-eof judges it. An inherited one outlives it.
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
