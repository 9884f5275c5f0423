/** What both drill clients (client-process.ts, in-process-client.ts) share: events and waiters, the holder's report and control pipe. */
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { ClientEvent } from '../../shared/protocol.js';
import { identify } from '../../observe/index.js';
import { pipeLines } from '../../util/lines.js';
import { parseHolderLine, type HolderState } from '../holder/holder.js';

type Waiter = { match: (event: ClientEvent) => boolean; resolve: (event: ClientEvent | null) => void; timer: NodeJS.Timeout };

async function within(promise: Promise<unknown>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** Client events no waiter asks for after the fact (waitFor sees them only as they come). */
const UNKEPT: ReadonlySet<ClientEvent['type']> = new Set(['stdout-noise', 'rpc-in', 'rpc-out']);

/** The events a client reported, the waiters for events still to come, and the client's exit. */
export class ClientEvents {
  private readonly events: ClientEvent[] = [];
  private waiters: Waiter[] = [];
  private gone = false;
  private readonly exitListeners: Array<() => void> = [];

  constructor(private readonly handler: (event: ClientEvent) => void) {}

  /** The client (for a held client: the holder's child, or the holder itself) has exited. */
  get exited(): boolean {
    return this.gone;
  }

  /** Wire traffic is not kept: nothing waits for a past message, and a flooding server must not grow this list. */
  add(event: ClientEvent): void {
    if (!UNKEPT.has(event.type)) this.events.push(event);
    this.handler(event);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(event)) {
        clearTimeout(waiter.timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      }
    }
  }

  /** Waits for a matching event, counting ones that already arrived. Null on timeout or client death. */
  waitFor(match: (event: ClientEvent) => boolean, timeoutMs: number): Promise<ClientEvent | null> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    if (this.gone) return Promise.resolve(null);
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

  flushWaiters(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(null);
    }
    this.waiters = [];
  }

  /** The client has exited (the first word of it counts; later ones change nothing). */
  clientExited(): void {
    if (this.gone) return;
    this.gone = true;
    this.flushWaiters();
    for (const listener of this.exitListeners.splice(0)) listener();
  }

  /** Resolves once the client has exited and the subject's stderr has ended (its last words count), or after `timeoutMs`. */
  async closed(subjectStderr: Readable | null, timeoutMs: number): Promise<void> {
    const ended =
      !subjectStderr || subjectStderr.readableEnded || subjectStderr.destroyed
        ? Promise.resolve()
        : new Promise<void>((resolve) => subjectStderr.once('close', resolve));
    const exited = this.gone ? Promise.resolve() : new Promise<void>((resolve) => this.exitListeners.push(resolve));
    await within(Promise.all([exited, ended]), timeoutMs);
  }
}

/** What the holder reports on its stdout, line by line (holder.ts): who it is, whether it is a subreaper, its child. */
export class HolderReport {
  readonly state: HolderState = { identity: null, subreaper: null, clientPid: null, watchdogSignalled: null };
  private reported: (() => void) | null = null;
  /** Resolves once the holder has said whether it is a subreaper and named its child (or is gone). */
  private readonly lines = new Promise<void>((resolve) => (this.reported = resolve));

  /** `onChildChanged` at each SIGCHLD the holder got: an orphan re-parented to it may just have exited. */
  read(holder: ChildProcess, onClientExit: () => void, onChildChanged?: () => void): void {
    const out = holder.stdout;
    if (!out) return;
    out.once('end', () => this.reported?.());
    // A spare holder (holder-pool.ts) was spawned long before: its 'spawn' event is gone.
    if (holder.pid !== undefined) this.state.identity = identify(holder.pid);
    else
      holder.once('spawn', () => {
        if (holder.pid !== undefined) this.state.identity = identify(holder.pid);
      });
    pipeLines(out, (line) => {
      const said = parseHolderLine(line, this.state);
      if (said === 'client-exit') onClientExit();
      else if (said === 'child-changed') onChildChanged?.();
      if (this.state.clientPid !== null) this.reported?.();
    });
  }

  /**
   * Resolves once the holder has said whether it is a subreaper (which decides how the drill is
   * tracked), or is gone, or after timeoutMs: the client's ready comes on another stream, in no order.
   */
  known(timeoutMs: number): Promise<void> {
    return within(this.lines, timeoutMs);
  }
}

/** Closes the holder's control pipe: "done\n" lets it go; bare, its watchdog takes it for the harness's death and ends everything below. */
export function endControl(stdin: Writable | null | undefined, text?: string): void {
  if (!stdin || stdin.destroyed) return;
  stdin.on('error', () => {});
  if (text) stdin.end(text);
  else stdin.end();
}

/** Hands a stream's text to `sink` as it comes; a broken stream is not an error of the drill. */
export function pipeText(stream: Readable | null | undefined, sink: (text: string) => void, onEnd?: () => void): void {
  if (!stream) return;
  stream.setEncoding('utf8');
  stream.on('data', sink);
  stream.on('error', () => {});
  if (onEnd) stream.once('end', onEnd);
}
