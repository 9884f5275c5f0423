/** The 2025-11-25 era: the official SDK 1 Client (initialize, then requests without an envelope). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { LEGACY_REVISION } from './envelope.js';
import { resultText, type EraSession, type ToolAnswer } from './era-session.js';
import type { ClientSetupStep, ClientToolCall } from './protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The Client's own default validator (Ajv, for tools' output schemas), made when a tool first
 * needs one: most servers declare no output schema, and Ajv's start is a few ms of every drill.
 */
export class AjvOnFirstUse implements jsonSchemaValidator {
  private ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.ajv ??= new AjvJsonSchemaValidator();
    return this.ajv.getValidator<T>(schema);
  }
}

export class LegacySession implements EraSession {
  readonly era = LEGACY_REVISION;
  readonly client = new Client({ name: 'crash-drill', version: '0.1.0' }, { capabilities: {}, jsonSchemaValidator: new AjvOnFirstUse() });

  constructor() {
    // EPIPE on the subject's stdin after it died is part of what a drill observes, not a client failure.
    this.client.onerror = () => {};
  }

  /** initialize and initialized; rejects like the SDK does (an error answer, a timeout, a closed pipe). */
  connect(transport: Transport, timeoutMs: number): Promise<void> {
    return this.client.connect(transport, { timeout: timeoutMs });
  }

  async setupStep(step: ClientSetupStep, timeoutMs: number): Promise<void> {
    if (step.kind === 'listen') {
      throw new Error(
        'cannot apply in 2025-11-25: subscriptions/listen exists only in 2026-07-28; write the step as subscribe: <uri> (resources/subscribe), or pin protocol: 2026-07-28',
      );
    }
    if (step.kind === 'subscribe') {
      await this.client.subscribeResource({ uri: String(step.args.uri) }, { timeout: timeoutMs });
      return;
    }
    const answer = await this.callTool(step, {}, timeoutMs);
    if (answer.isError) throw new Error(`the tool answered with isError: ${answer.text}`);
  }

  async callTool(call: ClientToolCall, meta: Record<string, unknown>, timeoutMs: number): Promise<ToolAnswer> {
    const params = { name: call.call, arguments: call.args, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
    const result = await this.client.callTool(params, undefined, { timeout: timeoutMs });
    return { isError: result.isError === true, text: resultText(result) };
  }

  async ping(timeoutMs: number): Promise<void> {
    await this.client.ping({ timeout: timeoutMs });
  }

  async listTools(timeoutMs: number): Promise<number> {
    const result = await this.client.listTools(undefined, { timeout: timeoutMs });
    return result.tools.length;
  }

  cancelMessage(requestId: string | number, reason: string): Record<string, unknown> {
    return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
  }

  serverInfo(): { name: string | null; version: string | null } {
    const info = this.client.getServerVersion();
    return { name: info?.name ?? null, version: info?.version ?? null };
  }
}
