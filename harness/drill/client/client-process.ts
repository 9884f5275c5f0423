import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ClientEvent, ClientSpawn, HarnessCommand, StartCommand } from '../../shared/protocol.js';
import type { ProfileFacts } from '../../evidence/types.js';
import type { Scenario } from '../../config/index.js';
import { SUBJECT_STDERR_FD } from '../../shared/protocol.js';
import { holdBack } from '../../shared/held-env.js';
import { identify, runIdOf, type ProcIdentity } from '../../observe/index.js';
import { watchdogFile } from '../../registry/index.js';
import { distFile } from '../../util/paths.js';
import { ClientEvents, endControl, HolderReport, pipeText } from './client-base.js';
import { textPipe } from './text-pipe.js';
import { holderCommand, holderEnv, type HolderState } from '../holder/holder.js';

/** How long a client may take to report ready. */
export const CLIENT_START_TIMEOUT_MS = 10_000;

/** The client events that end the handshake and setup, well or badly. */
export const SETUP_ENDED: ReadonlySet<ClientEvent['type']> = new Set(['setup-done', 'setup-error', 'handshake-error', 'spawn-error', 'client-error']);

/** What a client needs of its profile to spawn the server as that client does. */
export function clientSpawn(profile: ProfileFacts): ClientSpawn {
  return { profile: profile.name, spawn: profile.spawn, closesStdinWhenChildExits: profile.closesStdinWhenChildExits };
}

/** The command that makes a client start the scenario's server, run its setup and hold the target call. */
export function startCommand(
  scenario: Scenario,
  env: Record<string, string>,
  correlationId: string,
  opts: { progressToken?: boolean; client?: ClientSpawn } = {},
): StartCommand {
  return {
    type: 'start',
    subject: { command: scenario.subject.command, args: scenario.subject.args, env, cwd: scenario.subject.cwd },
    ...(opts.client ? { client: opts.client } : {}),
    setup: scenario.setup,
    target: scenario.target,
    correlationId,
    callTimeoutMs: Math.max(scenario.timeouts.handshake, scenario.timeouts.point),
    protocol: scenario.protocol,
    discoverTimeoutMs: scenario.timeouts.discover,
    ...(scenario.record ? { lineLimits: { lineBytes: scenario.record.lineBytes, unterminatedBytes: scenario.record.unterminatedBytes } } : {}),
    ...(opts.progressToken ? { progressToken: true } : {}),
  };
}

export interface ClientProcessHandlers {
  onEvent(event: ClientEvent): void;
  onSubjectStderr(text: string): void;
  /** The server's stderr reached its end (every holder of it exited or closed it): look for the server's exit now. */
  onSubjectStderrEnd?(): void;
  /** The holder got a SIGCHLD (the client, or an orphan re-parented to it, exited): look now. */
  onHolderChild?(): void;
  onClientStderr(text: string): void;
}

/** The run's watchdog record, or none for a drill id that is not of a registered run's shape. */
export function recordFileFor(drillId: string): string {
  try {
    return watchdogFile(runIdOf(drillId));
  } catch {
    return '';
  }
}

/**
 * One drill client process, under a holder where perl is available (holder.ts). The holder is
 * detached, so a Ctrl-C reaches only the harness, which contains the drill itself. The harness
 * holds the reading end of the server's stderr, so its last words survive the client.
 */
export class DrillClientProcess {
  /** The process the harness spawned: the holder, or the client itself without one. */
  readonly child: ChildProcess;
  identity: ProcIdentity | null = null;
  /** Null when the client runs without a holder (no perl, or turned off). */
  readonly holder: HolderState | null;
  private readonly report: HolderReport | null;
  private readonly events: ClientEvents;
  /** Hands over at once what waits in the server's stderr pipe (text-pipe.ts). */
  drainSubjectStderr: () => void = () => {};

  /** With `cgroupDir`, the client joins the cgroup before exec, so not even the server's first fork happens outside it. */
  constructor(drillId: string, handlers: ClientProcessHandlers, cgroupDir?: string) {
    this.events = new ClientEvents((event) => handlers.onEvent(event));
    const main = distFile('bin/drill-client.js');
    if (!existsSync(main)) throw new Error(`the drill client is not built: ${main} is missing (run npm run build)`);
    const procs = cgroupDir ? join(cgroupDir, 'cgroup.procs') : '';
    const held = holderCommand(procs, [process.execPath, main], recordFileFor(drillId), undefined, drillId);
    const [command, args] = held
      ? held
      : cgroupDir
        ? ['/bin/sh', ['-c', 'echo $$ > "$1" 2>/dev/null; exec "$0" "$2"', process.execPath, procs, main]]
        : [process.execPath, [main]];
    this.child = spawn(command, args, {
      detached: true,
      stdio: [held ? 'pipe' : 'ignore', held ? 'pipe' : 'ignore', 'pipe', 'ipc', 'pipe'],
      // The client's own start skips what only the server needs (harness/shared/held-env.ts); the server gets it back.
      env: holdBack(held ? holderEnv(process.env) : { ...process.env, CRASH_DRILL_RUN: drillId }),
    });
    this.report = held ? new HolderReport() : null;
    this.holder = this.report?.state ?? null;
    this.child.on('message', (event: ClientEvent) => this.events.add(event));
    this.report?.read(
      this.child,
      () => this.events.clientExited(),
      () => handlers.onHolderChild?.(),
    );
    // Without a holder the spawned child is the client; with one, the holder reports the client's exit.
    this.child.on('exit', () => this.events.clientExited());
    // An 'error' here means the spawn itself failed or IPC broke; the exit handler settles waiters.
    this.child.on('error', () => this.events.flushWaiters());
    pipeText(this.child.stderr, (text) => handlers.onClientStderr(text));
    this.drainSubjectStderr = textPipe(this.child.stdio[SUBJECT_STDERR_FD] as Readable, (text) => handlers.onSubjectStderr(text), handlers.onSubjectStderrEnd);
  }

  /** Resolves once the client reports ready, with its identity, or null when it died first. */
  async ready(timeoutMs: number): Promise<ProcIdentity | null> {
    const event = await this.waitFor((e) => e.type === 'client-ready', timeoutMs);
    if (!event || event.type !== 'client-ready' || this.child.pid === undefined) return null;
    // Two streams: the client may say ready before the holder's "subreaper" line is read.
    if (this.report) await this.report.known(timeoutMs);
    this.identity = identify(this.holder ? event.pid : this.child.pid);
    return this.identity;
  }

  /** The client's pid as far as it is known (before it reported ready, too). */
  clientPid(): number | undefined {
    return this.holder ? (this.holder.clientPid ?? undefined) : this.child.pid;
  }

  /** The drill is contained: let the holder go. Until then every orphan of the drill has a parent the observer knows. */
  release(): void {
    endControl(this.child.stdin, 'done\n');
  }

  send(command: HarnessCommand): boolean {
    if (this.events.exited || !this.child.connected) return false;
    try {
      this.child.send(command);
      return true;
    } catch {
      return false;
    }
  }

  get alive(): boolean {
    return !this.events.exited;
  }

  /** Waits for a matching event, counting ones that already arrived. Null on timeout or client death. */
  waitFor(match: (event: ClientEvent) => boolean, timeoutMs: number): Promise<ClientEvent | null> {
    return this.events.waitFor(match, timeoutMs);
  }

  /** Resolves once the client has exited and the subject's stderr has ended (its last words count), or after `timeoutMs`. */
  closed(timeoutMs: number): Promise<void> {
    return this.events.closed(this.child.stdio[SUBJECT_STDERR_FD] as Readable | null, timeoutMs);
  }

  /** The client never reported: closing the control pipe without "done" makes the holder's watchdog end everything below it. */
  abandon(): void {
    endControl(this.child.stdin);
  }

  /** Releases the harness's ends of the pipes, but the control pipe: closing it without "done" means the harness died. */
  dispose(): void {
    this.events.flushWaiters();
    for (const [fd, stream] of this.child.stdio.entries()) if (fd !== 0 || !this.holder) stream?.destroy();
    if (this.child.connected) this.child.disconnect();
  }
}
