/** The 2026-07-28 era by hand: the SDK 2 client probes on a sibling process (typescript-sdk #2514), the drill on the server it observes. */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { modernEnvelope, MODERN_REVISION, SUBSCRIPTION_ID_META_KEY } from './envelope.js';
import { resultText, type EraSession, type ToolAnswer } from './era-session.js';
import type { ClientSetupStep, ClientToolCall } from './protocol.js';
import { RpcError, type RpcRequester } from './rpc-requester.js';

export class ModernSession implements EraSession {
  readonly era = MODERN_REVISION;
  private readonly acks = new Map<string, (ack: JSONRPCMessage) => void>();

  constructor(private readonly rpc: RpcRequester) {
    rpc.onOther = (message) => this.onOther(message);
  }

  async setupStep(step: ClientSetupStep, timeoutMs: number): Promise<void> {
    if (step.kind === 'subscribe') {
      throw new Error(
        'cannot apply in 2026-07-28: resources/subscribe was removed from this revision (subscriptions/listen replaced it); write the step as listen: { resource-subscriptions: [...] }, or pin protocol: 2025-11-25',
      );
    }
    if (step.kind === 'listen') return this.listen(step.args, timeoutMs);
    const answer = await this.callTool(step, {}, timeoutMs);
    if (answer.isError) throw new Error(`the tool answered with isError: ${answer.text}`);
  }

  async callTool(call: ClientToolCall, meta: Record<string, unknown>, timeoutMs: number): Promise<ToolAnswer> {
    const result = await this.rpc.request('tools/call', { name: call.call, arguments: call.args, _meta: { ...modernEnvelope(), ...meta } }, timeoutMs);
    if (result.resultType === 'input_required')
      return { isError: true, text: 'the server asked for client input (resultType input_required), which the drill client does not give' };
    return { isError: result.isError === true, text: resultText(result) };
  }

  async ping(timeoutMs: number): Promise<void> {
    await this.rpc.request('ping', { _meta: modernEnvelope() }, timeoutMs);
  }

  async listTools(timeoutMs: number): Promise<number> {
    const result = await this.rpc.request('tools/list', { _meta: modernEnvelope() }, timeoutMs);
    return Array.isArray(result.tools) ? result.tools.length : 0;
  }

  cancelMessage(requestId: string | number, reason: string): Record<string, unknown> {
    return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason, _meta: modernEnvelope() } };
  }

  /** subscriptions/listen stays open: the step is done at the server's acknowledging notification; an error answer fails it. */
  private async listen(params: Record<string, unknown>, timeoutMs: number): Promise<void> {
    const id = this.rpc.nextId();
    const acked = new Promise<void>((resolve) => this.acks.set(id, () => resolve()));
    const answered = this.rpc.request('subscriptions/listen', { ...params, _meta: modernEnvelope() }, timeoutMs, id).then(
      () => {
        throw new Error('subscriptions/listen was answered (closed) before it was acknowledged');
      },
      (error: unknown) => {
        throw error instanceof RpcError ? new Error(`subscriptions/listen failed: ${error.message}`) : error;
      },
    );
    try {
      await Promise.race([acked, answered]);
    } finally {
      this.acks.delete(id);
    }
    // The request stays pending until the server ends the stream; that is expected, not an error.
    answered.catch(() => {});
  }

  private onOther(message: JSONRPCMessage): void {
    const m = message as { method?: string; params?: { _meta?: Record<string, unknown> } };
    if (m.method !== 'notifications/subscriptions/acknowledged') return;
    const id = m.params?._meta?.[SUBSCRIPTION_ID_META_KEY];
    const waiter = id !== undefined ? this.acks.get(String(id)) : [...this.acks.values()][0];
    waiter?.(message);
  }
}
