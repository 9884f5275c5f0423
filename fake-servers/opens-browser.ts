/**
 * opens-browser: a raw JSON-RPC 2025-11-25 server (no SDK) whose one tool, `open-page`, does what
 * a browser server's first call does: a probe first (`node --version`, as a launcher checks its
 * runtime), then the browser itself, Node's spawn of `FAKE_BROWSER` (headless, `about:blank`, the
 * flags in `FAKE_BROWSER_ARGS`, a JSON array), whose fork runs the server's own argv until it
 * execs. It answers once the browser is started and ends it (SIGKILL to its process group) at
 * stdin EOF before it exits. The oracle for child-spawned on a browser
 * (test/drill/executor/child-point.e2e.test.ts): the point fires on the browser, never on the
 * probe or the fork.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

const browser = process.env.FAKE_BROWSER ?? 'chromium';
const extra = JSON.parse(process.env.FAKE_BROWSER_ARGS ?? '[]') as string[];
const opened: ChildProcess[] = [];

function send(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
}

function openPage(): string {
  execFileSync(process.execPath, ['--version']); // the probe
  const child = spawn(browser, [...extra, '--headless', 'about:blank'], { stdio: 'ignore', detached: true });
  opened.push(child);
  return `browser ${child.pid}`;
}

/** The answer to one request: a result, or an error for a method it does not serve. */
function answer(method: string | undefined): Record<string, unknown> {
  if (method === 'initialize')
    return { result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'opens-browser', version: '1' } } };
  if (method === 'ping') return { result: {} };
  if (method === 'tools/list') return { result: { tools: [{ name: 'open-page', inputSchema: { type: 'object' } }] } };
  if (method === 'tools/call') return { result: { content: [{ type: 'text', text: openPage() }] } };
  return { error: { code: -32601, message: 'Method not found' } };
}

function handle(m: { id?: unknown; method?: string }): void {
  if (m.id !== undefined) send({ id: m.id, ...answer(m.method) });
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (line.trim()) handle(JSON.parse(line) as { id?: unknown; method?: string });
  }
});
process.stdin.on('end', () => {
  for (const child of opened) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  process.exit(0);
});
