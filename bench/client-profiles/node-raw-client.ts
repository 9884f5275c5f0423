/**
 * A stand-in for the Cline CLI (@cline/core's StdioMcpClient, sdk/packages/core/src/extensions/mcp/client.ts),
 * which speaks MCP over the pipes itself, without the SDK's transport:
 *
 *   node node-raw-client.js <command> [args...]
 *
 * spawnProcess: child_process.spawn(command, args, { env: process.env + config, stdio: pipe x3 }),
 * stdout parsed as newline-delimited JSON, stderr kept in a buffer. disconnect(): child.kill(),
 * which is SIGTERM to the direct child: no stdin close, no wait, no escalation. The runtime (Bun
 * there, Node here) destroys the child's stdin when the child exits. Then the client lives on.
 * Reports like scripted_client.py, one JSON line each.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node-raw-client.js <command> [args...]\n');
  process.exit(2);
}
const report = (fields: object) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const child = spawn(command, args, { env: { ...process.env }, stdio: ['pipe', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk: Buffer) => {
  stderr = (stderr + chunk.toString('utf8')).slice(-16_384);
});
const pending = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
createInterface({ input: child.stdout }).on('line', (line) => {
  let message: { id?: unknown; result?: unknown; error?: unknown };
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof message.id === 'number') pending.get(message.id)?.(message);
});
let nextId = 1;
const request = (method: string, params: object) =>
  new Promise<{ result?: unknown; error?: unknown }>((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  });

await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ground-truth', version: '0' } });
child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
const listed = (await request('tools/list', {})).result as { tools: { name: string }[] };
let helper: number | null = null;
if (listed.tools.some((t) => t.name === 'spawn-helper')) {
  const called = (await request('tools/call', { name: 'spawn-helper', arguments: {} })).result as { content: { text: string }[] };
  helper = Number(called.content[0].text.split(' ').pop());
}
report({ ready: true, child: child.pid, helper });

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stop') continue;
  const started = performance.now();
  child.kill();
  report({ stopped: true, ms: Math.round(performance.now() - started) });
  break;
}
// Lives on: the readline interface is done with stdin, so a timer keeps the loop alive.
setInterval(() => {}, 1 << 30);
