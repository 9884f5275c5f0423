/**
 * The SDK 1 client's view of a connection it shares with the requester of a server/discover
 * probe that is still waiting for its answer (era-select.ts, after the probe's timeout).
 *
 * The requester keeps the recording transport: its own answers (string ids, `cd-<n>`) stay
 * its own, everything else (the SDK client's numeric ids, the server's requests and
 * notifications) comes here. close() never closes the server's stdin: the SDK client closes
 * its transport when initialize fails, and an initialize refused with -32022 for the modern era
 * is exactly when the connection must stay open (the late answer or a re-probe follows on it).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RecordingStdioTransport } from './recording-transport.js';
import type { RpcRequester } from './rpc-requester.js';

export class SharedLink implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;

  constructor(
    private readonly transport: RecordingStdioTransport,
    rpc: RpcRequester,
  ) {
    rpc.onOther = (message) => this.onmessage?.(message);
    rpc.onStray = (message) => this.onmessage?.(message);
    rpc.onClosed = () => this.close();
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('Not connected');
    await this.transport.send(message);
  }

  /** The SDK client is done with the connection (or the server closed it); the server's stdin stays as it is. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
