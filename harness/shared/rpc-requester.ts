import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { type RecordingStdioTransport, StdinGone } from './recording-transport.js';
import { InternalError } from '../util/errors.js';

/** An error answer of the server, with its JSON-RPC code (a protocol error, not a tool error). */
export class RpcError extends InternalError {
  readonly code = 'CRASH_DRILL_RPC_ERROR';
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(`MCP error ${rpcCode}: ${message}`);
  }
}

export class RpcTimeout extends InternalError {
  readonly code = 'CRASH_DRILL_RPC_TIMEOUT';
}

/** What a request says, in either era, when the server is gone: see connectionClosed. */
export const CLOSED = 'the server closed the connection';

export class RpcClosed extends InternalError {
  readonly code = 'CRASH_DRILL_RPC_CLOSED';
}

/** Node's codes for a write to a stream that is no more: ended by us, or destroyed (at the child's exit, after an EPIPE). */
const GONE_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** A write that found stdin closed is the same news as the end of stdout: which comes first after the server dies is a race. */
function writeFoundClosed(error: unknown): boolean {
  return error instanceof StdinGone || GONE_CODES.has(String((error as NodeJS.ErrnoException | null)?.code));
}

/** The server closed the connection: the end of its stdout (RpcClosed, or SDK 1's "Connection closed", typescript-sdk 1.32.2 src/shared/protocol.ts `_onclose`), or a write that found stdin closed. */
export function connectionClosed(error: unknown): boolean {
  if (error instanceof RpcClosed || writeFoundClosed(error)) return true;
  return (
    error instanceof McpError && error.code === ErrorCode.ConnectionClosed && error.message === `MCP error ${ErrorCode.ConnectionClosed}: Connection closed`
  );
}

type Pending = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/** A bare JSON-RPC requester over the recording transport; string ids (`cd-<n>`) never clash with the SDK client's numeric ones. */
export class RpcRequester {
  private next = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  /** Ids this requester stopped waiting for (detach()): a late answer to one is recorded by the transport, and dropped here. */
  private readonly abandoned = new Set<string>();
  onOther: (message: JSONRPCMessage) => void = () => {};
  /** A response whose id was never this requester's (the SDK client's numeric ids while it shares the transport). */
  onStray: (message: JSONRPCMessage) => void = () => {};
  onClosed: () => void = () => {};

  constructor(private readonly transport: RecordingStdioTransport) {}

  /** Takes over the transport's callbacks (the SDK client takes them back if the era falls back). */
  attach(): void {
    this.transport.onmessage = (message) => this.onMessage(message);
    this.transport.onclose = () => this.onClose();
    this.transport.onerror = () => {};
  }

  nextId(): string {
    return `cd-${this.next++}`;
  }

  request(method: string, params: Record<string, unknown>, timeoutMs: number, id = this.nextId()): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new RpcClosed(CLOSED));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcTimeout(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.transport.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((error: unknown) => {
        const closed = writeFoundClosed(error);
        this.settle(id)?.reject(closed ? new RpcClosed(CLOSED) : error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.transport.send({ jsonrpc: '2.0', method, params } as JSONRPCMessage);
  }

  detach(): void {
    for (const id of [...this.pending.keys()]) {
      this.abandoned.add(id);
      this.settle(id)?.reject(new RpcClosed('the requester was detached'));
    }
  }

  private onMessage(message: JSONRPCMessage): void {
    const m = message as { id?: string | number; result?: Record<string, unknown>; error?: { code: number; message: string }; method?: string };
    if (m.method === undefined && m.id !== undefined) {
      const pending = this.settle(String(m.id));
      if (!pending) {
        if (!this.abandoned.has(String(m.id))) this.onStray(message);
        return;
      }
      if (m.error) pending.reject(new RpcError(m.error.code, m.error.message));
      else pending.resolve(m.result ?? {});
      return;
    }
    this.onOther(message);
  }

  private onClose(): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new RpcClosed(CLOSED));
    this.onClosed();
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    return pending;
  }
}
