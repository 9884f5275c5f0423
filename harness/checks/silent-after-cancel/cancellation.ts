/**
 * What a server sends when a cancel ended a call; such an answer was caused by the cancel. What
 * the SDKs do, from their sources:
 * - go-sdk v1.8.0, v1.6.1: cancels the handler's context (mcp/transport.go canceller.Preempt,
 *   jsonrpc2 Connection.Cancel) and writes what it returns (internal/jsonrpc2/conn.go
 *   Connection.processResult): an error becomes an isError result.
 * - mcp-go v1.2.1: cancels the context (server/server.go handleNotification, inflightCancels);
 *   errors are -32603; its interrupted code is -32800, REQUEST_INTERRUPTED (mcp/types.go).
 * - rmcp 3.11.0: drops the response (src/service.rs, "dropping response for cancelled request").
 * - Java SDK 2.2.0: the 2026-07-28 transport drops it (StdioMcpTransport); the 2025-11-25 session
 *   (McpServerSession) ignores the notification, so the answer goes out.
 * - TypeScript SDK 1.32.2: not sent (src/shared/protocol.ts, _onrequest abortController.signal.aborted).
 */

/** One sign that an answer is a cancellation: what it is and where it comes from. */
interface CancellationSign {
  what: string;
  code?: number;
  /** Searched case-sensitively in the error's message and data, or an isError result's text. */
  text?: string;
}

const SIGNS: readonly CancellationSign[] = [
  // LSP's RequestCancelled; mcp-go v1.2.1 REQUEST_INTERRUPTED (mcp/types.go).
  { what: 'the error code -32800 (request cancelled)', code: -32800 },
  // Go's context.Canceled: a handler that returns its cancelled context's error (go-sdk, mcp-go).
  { what: "Go's context.Canceled", text: 'context canceled' },
  // Go's os/exec: a child started with exec.CommandContext, killed when the context ended.
  { what: "a Go child killed by its cancelled context (exec.CommandContext's 'signal: killed')", text: 'signal: killed' },
];

interface Answer {
  error?: { code?: unknown; message?: unknown; data?: unknown };
  result?: { isError?: unknown; content?: unknown };
}

/** The sign that makes a response a cancellation, or null when it is none (a result, or an error of another kind). */
export function cancellationIn(message: unknown): string | null {
  const answer = message as Answer;
  const texts = errorTexts(answer);
  for (const sign of SIGNS) {
    if (sign.code !== undefined && answer.error?.code === sign.code) return sign.what;
    if (sign.text !== undefined && texts.some((t) => t.includes(sign.text!))) return sign.what;
  }
  return null;
}

/** The texts of an error answer: a JSON-RPC error's message and string data, or an isError tool result's text content. */
function errorTexts(answer: Answer): string[] {
  if (answer.error) return [answer.error.message, answer.error.data].filter((t): t is string => typeof t === 'string');
  if (answer.result?.isError !== true || !Array.isArray(answer.result.content)) return [];
  return (answer.result.content as Array<{ type?: unknown; text?: unknown }>)
    .filter((c) => c.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text as string);
}
