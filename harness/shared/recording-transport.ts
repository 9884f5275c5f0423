import type { ChildProcess } from 'node:child_process';
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { monoNow } from '../util/clock.js';
import { InternalError } from '../util/errors.js';
import { CORRELATION_META_KEY, type ClientEvent } from './protocol.js';
import type { SpawnedServer } from './spawn-subject.js';

type Emit = (event: ClientEvent) => void;

/** Why the server's stdout is not read for now (hold()). */
type HoldReason = 'in-flight' | 'ipc' | 'cancel';

/** How much of a pipe the drain reads at most before a cancel: a flooding server cannot keep it going (64 pipe buffers). */
const DRAIN_LIMIT_BYTES = 64 * 64 * 1024;

/** The client's end of the server's stdin is gone (Node destroys it when the child exits, or after an EPIPE); the SDK's wording. */
export class StdinGone extends InternalError {
  readonly code = 'CRASH_DRILL_STDIN_GONE';
}

/**
 * A stdio client transport like the SDK's StdioClientTransport that records every line the server
 * writes (its ReadBuffer drops non-JSON-RPC ones) and can stop just before the target call.
 */
export class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private buffer = '';
  /** A line that ran past `unterminatedBytes` with no newline: its head, and how much more came. */
  private overlong: { head: string; more: number } | null = null;
  private readonly lineBytes: number;
  private readonly unterminatedBytes: number;
  private targetCorrelationId: string | null = null;
  private dispatchGate: Promise<boolean> | null = null;
  private openGate: ((holdResponses: boolean) => void) | null = null;
  private started = false;
  private readonly holds = new Set<HoldReason>();

  constructor(
    private readonly spawned: SpawnedServer,
    private readonly emit: Emit,
    limits: { lineBytes: number; unterminatedBytes: number } = { lineBytes: 8 * 1024, unterminatedBytes: 16 * 1024 * 1024 },
  ) {
    this.lineBytes = limits.lineBytes;
    this.unterminatedBytes = limits.unterminatedBytes;
  }

  get child(): ChildProcess {
    return this.spawned.child;
  }

  get exited(): boolean {
    return this.spawned.exited;
  }

  /** Idempotent: the era probe starts the transport, and the SDK client calls start() again in connect(). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (!(await this.spawned.started)) throw new Error('the server could not be started');
    // Writing to a server that is gone is expected in a crash drill; it is evidence, not a client failure.
    this.spawned.stdin?.on('error', (error) => this.onerror?.(error));
    this.spawned.onClose(() => this.onclose?.());
    this.spawned.attach(
      (chunk) => this.onChunk(chunk),
      () => this.flushPartialLine(),
    );
  }

  /** The next tools/call carrying this correlation id waits in send() until dispatch() opens the gate. */
  holdTarget(correlationId: string): void {
    this.targetCorrelationId = correlationId;
    this.dispatchGate = new Promise((resolve) => (this.openGate = resolve));
  }

  dispatch(holdResponses: boolean): void {
    this.openGate?.(holdResponses);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.write(message);
  }

  async write(message: JSONRPCMessage): Promise<number> {
    const stdin = this.spawned.stdin;
    if (!stdin || stdin.destroyed || stdin.writableEnded) throw new StdinGone('Not connected');
    const isTarget = this.isTarget(message);
    let holdResponses = false;
    if (isTarget && this.dispatchGate) {
      this.emit({ type: 'before-dispatch', t: monoNow(), requestId: (message as { id: string | number }).id });
      holdResponses = await this.dispatchGate;
      // Stop reading before the request is written, so the answer cannot be read before the kill.
      if (holdResponses) this.hold('in-flight');
    }
    const line = JSON.stringify(message) + '\n';
    return new Promise<number>((resolve, reject) => {
      stdin.write(line, (error) => {
        if (error) return reject(error);
        const t = monoNow();
        this.emit({ type: 'rpc-out', t, message });
        if (isTarget) this.emit({ type: 'dispatched', t, requestId: (message as { id: string | number }).id });
        resolve(t);
      });
    });
  }

  resumeReading(): void {
    this.release('in-flight');
  }

  /** Writes one message after draining what the server wrote before it; a line read before was written before the server could read this one. */
  async writeAfterDrain(message: JSONRPCMessage): Promise<{ t: number; drain: DrainResult }> {
    this.hold('cancel');
    try {
      const drain = this.drain();
      const t = await this.write(message);
      return { t, drain };
    } finally {
      this.release('cancel');
    }
  }

  private drain(): DrainResult {
    const stdout = this.spawned.stdout as (Readable & { _handle?: { fd?: number } | null }) | null;
    if (!stdout) return { bytes: 0, complete: true };
    // What the stream holds (Node read it from the pipe while nobody consumed it): read() hands it to the 'data' listener.
    let bytes = stdout.readableLength;
    while (stdout.read() !== null);
    const fd = stdout._handle?.fd;
    if (typeof fd !== 'number' || fd < 0) return { bytes, complete: true };
    const buffer = Buffer.alloc(64 * 1024);
    while (bytes < DRAIN_LIMIT_BYTES) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        // EAGAIN: the pipe is empty. Anything else (the pipe is gone) ends the drain too.
        return { bytes, complete: (error as NodeJS.ErrnoException).code === 'EAGAIN' };
      }
      if (n === 0) return { bytes, complete: true }; // end of file: the stream meets it on its own read
      bytes += n;
      // Through the stream, so its decoder joins a character split between two reads.
      stdout.push(Buffer.from(buffer.subarray(0, n)));
      while (stdout.read() !== null);
    }
    return { bytes, complete: false };
  }

  /** Stops reading stdout until no reason is left: `in-flight` (answer unread until the kill), `ipc` (harness backpressure), `cancel`. */
  hold(reason: HoldReason): void {
    if (this.holds.size === 0) this.spawned.stdout.pause();
    this.holds.add(reason);
  }

  release(reason: HoldReason): void {
    if (!this.holds.delete(reason)) return;
    if (this.holds.size === 0) this.spawned.stdout.resume();
  }

  async close(): Promise<void> {
    this.closeStdin();
  }

  closeStdin(): void {
    this.spawned.stdin?.end();
  }

  private isTarget(message: JSONRPCMessage): boolean {
    if (this.targetCorrelationId === null || !('method' in message) || message.method !== 'tools/call') return false;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    return meta?.[CORRELATION_META_KEY] === this.targetCorrelationId;
  }

  /** Splits stdout into lines; a line past `unterminatedBytes` keeps its head and counts the rest, so no server can fill our memory. */
  private onChunk(chunk: string): void {
    let from = 0;
    let index: number;
    while ((index = chunk.indexOf('\n', from)) !== -1) {
      const piece = chunk.slice(from, index);
      from = index + 1;
      if (this.overlong) {
        this.endOverlong(Buffer.byteLength(piece));
        continue;
      }
      const line = (this.buffer + piece).replace(/\r$/, '');
      this.buffer = '';
      this.onLine(line);
    }
    const rest = chunk.slice(from);
    if (rest.length === 0) return;
    if (this.overlong) {
      this.overlong.more += Buffer.byteLength(rest);
      return;
    }
    this.buffer += rest;
    if (this.buffer.length > this.unterminatedBytes) {
      const head = this.buffer.slice(0, this.lineBytes);
      this.overlong = { head, more: Buffer.byteLength(this.buffer) - Buffer.byteLength(head) };
      this.buffer = '';
    }
  }

  private endOverlong(moreBytes: number): void {
    const { head, more } = this.overlong!;
    this.overlong = null;
    this.emit({ type: 'stdout-noise', t: monoNow(), line: head, cutBytes: more + moreBytes });
  }

  private flushPartialLine(): void {
    if (this.overlong) {
      this.endOverlong(0);
      return;
    }
    if (this.buffer.length > 0) {
      const line = this.buffer;
      this.buffer = '';
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    const t = monoNow();
    const message = parseJsonRpc(line);
    if (message === null) {
      this.emit({ type: 'stdout-noise', t, line });
      return;
    }
    this.emit({ type: 'rpc-in', t, message });
    this.onmessage?.(message);
  }
}

/** What the drain before a write read: its bytes, and whether it found the pipe empty (false: it stopped at its limit). */
export interface DrainResult {
  bytes: number;
  complete: boolean;
}

function parseJsonRpc(line: string): JSONRPCMessage | null {
  try {
    const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
