/** Logs go to stderr only: stdout belongs to JSON-RPC (MCP spec, stdio transport). */
export type Log = (message: string) => void;

export function createLog(name: string): Log {
  return (message) => {
    try {
      process.stderr.write(`[${name}] ${message}\n`);
    } catch {
      // stderr closed: nothing useful to do with a log line.
    }
  };
}
