/**
 * dies-writing-stderr: like cclsp 0.7.0 (an LSP bridge): an SDK 1 server with a language-server
 * child it talks to over pipes (`cat` here), which keep its event loop alive after stdin EOF
 * (the SDK's transport does not listen for 'end': typescript-sdk #2002), and a log line on
 * stderr every `FAKE_LOG_EVERY_MS` (default 100) ms. It never exits on EOF. Under a client that
 * pipes its stderr (Gemini CLI, Zed, Claude Code), the first line after that client died fails
 * with EPIPE and Node, with no 'error' handler on process.stderr, dies of it (exit 1): an exit
 * caused by a write, not by EOF. exit-on-eof must fail it in every run, whenever the write comes;
 * after the deadline its death follows the client's real stderr (no-survivors).
 */
import { spawn } from 'node:child_process';
import { McpServer, StdioServerTransport, z } from './lib/sdk.js';
import { envMs } from './lib/env-ms.js';

const server = new McpServer({ name: 'dies-writing-stderr', version: '1.0.0' });
server.registerTool('echo', { description: 'Answers with the text it was given.', inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));
// The language server: its pipes are live handles; it reads its stdin until the server dies.
const lsp = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
lsp.stdout.resume();
let n = 0;
setInterval(() => process.stderr.write(`dies-writing-stderr: lsp heartbeat ${++n}\n`), envMs('FAKE_LOG_EVERY_MS', 100));
await server.connect(new StdioServerTransport());
