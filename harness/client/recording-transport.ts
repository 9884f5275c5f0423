import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { monoNow } from '../util/clock.js';
import { CORRELATION_META_KEY, SUBJECT_STDERR_FD, type ClientEvent, type ClientSubject } from './protocol.js';

type Emit = (event: ClientEvent) => void;

/**
 * A stdio client transport that behaves like the SDK's StdioClientTransport (same default
 * environment, stdin/stdout pipes, newline-delimited JSON-RPC) but records every line the
 * server writes, including the ones that are not JSON-RPC (the SDK's ReadBuffer throws those
 * away), and can stop just before the target call is written.
 *
 * The subject's stderr is not read here: it is the client's fd 4, a pipe whose reading end the
 * harness holds, so the harness keeps receiving it (an EPIPE stack trace, say) after this
 * process has been killed.
 */
export class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  child: ChildProcess | undefined;
  exited = false;
  private buffer = '';
  private targetCorrelationId: string | null = null;
  private dispatchGate: Promise<boolean> | null = null;
  private openGate: ((holdResponses: boolean) => void) | null = null;

  constructor(
    private readonly subject: ClientSubject,
    private readonly emit: Emit,
  ) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(this.subject.command, this.subject.args, {
        env: { ...getDefaultEnvironment(), ...this.subject.env },
        cwd: this.subject.cwd,
        stdio: ['pipe', 'pipe', SUBJECT_STDERR_FD],
      });
      this.child = child;
      child.once('error', (error) => {
        this.emit({ type: 'spawn-error', t: monoNow(), message: error.message });
        reject(error);
      });
      child.once('spawn', () => {
        this.emit({ type: 'subject-spawned', t: monoNow(), pid: child.pid!, startTime: readStartTime(child.pid!) });
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exited = true;
        this.emit({ type: 'subject-exit', t: monoNow(), code, signal });
      });
      child.once('close', () => this.onclose?.());
      // Writing to a server that is gone is expected in a crash drill; it is evidence, not a client failure.
      child.stdin!.on('error', (error) => this.onerror?.(error));
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => this.onChunk(chunk));
      child.stdout!.on('end', () => this.flushPartialLine());
    });
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
    const child = this.child;
    if (!child?.stdin || child.stdin.destroyed) throw new Error('Not connected');
    const isTarget = this.isTarget(message);
    let holdResponses = false;
    if (isTarget && this.dispatchGate) {
      this.emit({ type: 'before-dispatch', t: monoNow(), requestId: (message as { id: string | number }).id });
      holdResponses = await this.dispatchGate;
      // Stop reading before the request is written, so the answer cannot be read before the kill.
      if (holdResponses) child.stdout!.pause();
    }
    const line = JSON.stringify(message) + '\n';
    await new Promise<void>((resolve, reject) => {
      child.stdin!.write(line, (error) => {
        if (error) return reject(error);
        const t = monoNow();
        this.emit({ type: 'rpc-out', t, message });
        if (isTarget) this.emit({ type: 'dispatched', t, requestId: (message as { id: string | number }).id });
        resolve();
      });
    });
  }

  resumeReading(): void {
    this.child?.stdout?.resume();
  }

  async close(): Promise<void> {
    this.child?.stdin?.end();
  }

  private isTarget(message: JSONRPCMessage): boolean {
    if (this.targetCorrelationId === null || !('method' in message) || message.method !== 'tools/call') return false;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    return meta?.[CORRELATION_META_KEY] === this.targetCorrelationId;
  }

  private onChunk(chunk: string): void {
    this.buffer += chunk;
    let index: number;
    while ((index = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, index).replace(/\r$/, '');
      this.buffer = this.buffer.slice(index + 1);
      this.onLine(line);
    }
  }

  private flushPartialLine(): void {
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

function parseJsonRpc(line: string): JSONRPCMessage | null {
  try {
    const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function readStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields after it start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch {
    return null;
  }
}
