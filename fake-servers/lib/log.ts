/** Logs go to stderr only: stdout belongs to JSON-RPC (MCP spec, stdio transport). */
export type Log = (message: string) => void;

/**
 * A client that pipes the server's stderr (VS Code, Codex, Zed, Goose, Gemini CLI, Claude Code:
 * docs/client-profiles.md) leaves it with no reader once the client dies; the next log line then
 * fails with EPIPE, and an unhandled 'error' on process.stderr would kill the server in the
 * middle of its cleanup, before it ends its children. A lost log line is no part of any
 * fake's behaviour, so the error is swallowed, once for the process.
 */
let stderrGuarded = false;

export function createLog(name: string): Log {
  if (!stderrGuarded) {
    stderrGuarded = true;
    process.stderr.on('error', () => {});
  }
  return (message) => {
    try {
      process.stderr.write(`[${name}] ${message}\n`);
    } catch {
      // stderr closed: nothing useful to do with a log line.
    }
  };
}
