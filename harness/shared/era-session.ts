import type { ClientSetupStep, ClientToolCall, ProtocolEra } from './protocol.js';

export interface ToolAnswer {
  isError: boolean;
  text: string;
}

/** One connection in one era: the SDK 1 Client (legacy-session.ts) or by hand (modern-session.ts). */
export interface EraSession {
  readonly era: ProtocolEra;
  /** Runs one setup step; throws with a message that says why a step cannot apply in this era. */
  setupStep(step: ClientSetupStep, timeoutMs: number): Promise<void>;
  callTool(call: ClientToolCall, meta: Record<string, unknown>, timeoutMs: number): Promise<ToolAnswer>;
  /** tools/list on the same connection; resolves with the number of tools. */
  listTools(timeoutMs: number): Promise<number>;
  ping(timeoutMs: number): Promise<void>;
  cancelMessage(requestId: string | number, reason: string): Record<string, unknown>;
}

/** The text of a tool result, for the evidence (500 characters at most). */
export function resultText(result: unknown): string {
  const raw = (result as { content?: unknown }).content;
  const content = Array.isArray(raw) ? raw : [];
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : `[${part.type}]`))
    .join('\n')
    .slice(0, 500);
}
