/** The SDK 1 client's view of a connection shared with a waiting server/discover probe; close() leaves stdin open for the late answer or re-probe. */
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
