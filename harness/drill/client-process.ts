import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ClientEvent, HarnessCommand, StartCommand } from '../client/protocol.js';
import type { Scenario } from '../config/index.js';
import { SUBJECT_STDERR_FD } from '../client/protocol.js';
import { identify, type ProcIdentity } from '../observe/index.js';
import { distFile } from '../util/paths.js';

/** How long a client may take to report ready. */
export const CLIENT_START_TIMEOUT_MS = 10_000;

/** The client events that end the handshake and setup, well or badly. */
export const SETUP_ENDED: ReadonlySet<ClientEvent['type']> = new Set(['setup-done', 'setup-error', 'handshake-error', 'spawn-error', 'client-error']);

/** The command that makes a client start the scenario's server, run its setup and hold the target call. */
export function startCommand(scenario: Scenario, env: Record<string, string>, correlationId: string): StartCommand {
  return {
    type: 'start',
    subject: { command: scenario.subject.command, args: scenario.subject.args, env, cwd: scenario.subject.cwd },
    setup: scenario.setup,
    target: scenario.target,
    correlationId,
    callTimeoutMs: Math.max(scenario.timeouts.handshake, scenario.timeouts.point),
  };
}

export interface ClientProcessHandlers {
  onEvent(event: ClientEvent): void;
  onSubjectStderr(text: string): void;
  onClientStderr(text: string): void;
}

type Waiter = { match: (event: ClientEvent) => boolean; resolve: (event: ClientEvent | null) => void; timer: NodeJS.Timeout };

/**
 * The harness's handle on one drill client process. The client leads its own process group and
 * session (detached), so a Ctrl-C at the terminal reaches only the harness, which then contains
 * the drill itself. fd 4 of the client is a pipe the subject gets as its stderr; the harness
 * holds the reading end so the subject's last words survive the client.
 */
export class DrillClientProcess {
  readonly child: ChildProcess;
  identity: ProcIdentity | null = null;
  private readonly events: ClientEvent[] = [];
  private waiters: Waiter[] = [];
  private exited = false;

  /**
   * With `cgroupDir`, the client enters the drill's cgroup before it runs a line of its own: a
   * shell writes its own pid into cgroup.procs and then execs Node (same pid, same IPC fd), so
   * not even the server's first fork happens outside the cgroup.
   */
  constructor(drillId: string, private readonly handlers: ClientProcessHandlers, cgroupDir?: string) {
    const main = distFile('harness/client/main.js');
    if (!existsSync(main)) throw new Error(`the drill client is not built: ${main} is missing (run npm run build)`);
    const [command, args] = cgroupDir
      ? ['/bin/sh', ['-c', 'echo $$ > "$1" 2>/dev/null; exec "$0" "$2"', process.execPath, join(cgroupDir, 'cgroup.procs'), main]]
      : [process.execPath, [main]];
    this.child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc', 'pipe'],
      env: { ...process.env, CRASH_DRILL_RUN: drillId },
    });
    this.child.on('message', (event: ClientEvent) => this.onEvent(event));
    this.child.on('exit', () => {
      this.exited = true;
      this.flushWaiters();
    });
    // An 'error' here means the spawn itself failed or IPC broke; the exit handler settles waiters.
    this.child.on('error', () => this.flushWaiters());
    this.pipe(this.child.stderr, (text) => handlers.onClientStderr(text));
    this.pipe(this.child.stdio[SUBJECT_STDERR_FD] as Readable, (text) => handlers.onSubjectStderr(text));
  }

  /** Resolves once the client reports ready, with its identity, or null when it died first. */
  async ready(timeoutMs: number): Promise<ProcIdentity | null> {
    const event = await this.waitFor((e) => e.type === 'client-ready', timeoutMs);
    if (!event || this.child.pid === undefined) return null;
    this.identity = identify(this.child.pid);
    return this.identity;
  }

  send(command: HarnessCommand): boolean {
    if (this.exited || !this.child.connected) return false;
    try {
      this.child.send(command);
      return true;
    } catch {
      return false;
    }
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Waits for a matching event, counting ones that already arrived. Null on timeout or client death. */
  waitFor(match: (event: ClientEvent) => boolean, timeoutMs: number): Promise<ClientEvent | null> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    if (this.exited) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        match,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(null);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * Resolves once the client has exited and the subject's stderr pipe has reached its end (every
   * process holding it is gone), or after `timeoutMs`: the last words of a dying server count.
   */
  async closed(timeoutMs: number): Promise<void> {
    const stderr = this.child.stdio[SUBJECT_STDERR_FD] as Readable | null;
    const ended = (stream: Readable | null) =>
      !stream || stream.readableEnded || stream.destroyed ? Promise.resolve() : new Promise<void>((resolve) => stream.once('close', resolve));
    const exited = this.exited ? Promise.resolve() : new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all([exited, ended(stderr)]), limit]);
    clearTimeout(timer);
  }

  /** Releases the harness's ends of the pipes (after containment, when nothing is left to say). */
  dispose(): void {
    this.flushWaiters();
    for (const stream of this.child.stdio) stream?.destroy();
    if (this.child.connected) this.child.disconnect();
  }

  private onEvent(event: ClientEvent): void {
    this.events.push(event);
    this.handlers.onEvent(event);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(event)) {
        clearTimeout(waiter.timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      }
    }
  }

  private flushWaiters(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(null);
    }
    this.waiters = [];
  }

  private pipe(stream: Readable | null | undefined, sink: (text: string) => void): void {
    if (!stream) return;
    stream.setEncoding('utf8');
    stream.on('data', sink);
    stream.on('error', () => {});
  }
}
