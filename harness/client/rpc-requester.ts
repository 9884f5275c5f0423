import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RecordingStdioTransport } from './recording-transport.js';

/** An error answer of the server, with its JSON-RPC code (a protocol error, not a tool error). */
export class RpcError extends Error {
  readonly code = 'CRASH_DRILL_RPC_ERROR';
  constructor(
    readonly rpcCode: number,
    message: string,
  ) {
    super(`MCP error ${rpcCode}: ${message}`);
  }
}

export class RpcTimeout extends Error {
  readonly code = 'CRASH_DRILL_RPC_TIMEOUT';
}

export class RpcClosed extends Error {
  readonly code = 'CRASH_DRILL_RPC_CLOSED';
}

type Pending = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

/**
 * A bare JSON-RPC requester over the recording transport: requests with string ids (`cd-<n>`, so
 * a late answer can never be taken for one of the SDK client's numeric ids after a fallback),
 * responses matched by id, every other message handed to `onOther`. The 2026-07-28 era is
 * spoken with this (modern-session.ts); the 2025-11-25 era with the SDK 1 Client.
 */
export class RpcRequester {
  private next = 1;
  private readonly pending = new Map<string, Pending>();
  private closed = false;
  onOther: (message: JSONRPCMessage) => void = () => {};

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
    if (this.closed) return Promise.reject(new RpcClosed('the server closed the connection'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcTimeout(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.transport.send({ jsonrpc: '2.0', id, method, params } as JSONRPCMessage).catch((error: unknown) => {
        this.settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.transport.send({ jsonrpc: '2.0', method, params } as JSONRPCMessage);
  }

  /** Stops waiting for every answer (the era falls back; a late answer is only recorded). */
  detach(): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new RpcClosed('the requester was detached'));
  }

  private onMessage(message: JSONRPCMessage): void {
    const m = message as { id?: string | number; result?: Record<string, unknown>; error?: { code: number; message: string }; method?: string };
    if (m.method === undefined && m.id !== undefined) {
      const pending = this.settle(String(m.id));
      if (!pending) return;
      if (m.error) pending.reject(new RpcError(m.error.code, m.error.message));
      else pending.resolve(m.result ?? {});
      return;
    }
    this.onOther(message);
  }

  private onClose(): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(new RpcClosed('the server closed the connection'));
  }

  private settle(id: string): Pending | undefined {
    const pending = this.pending.get(id);
    if (!pending) return undefined;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    return pending;
  }
}
