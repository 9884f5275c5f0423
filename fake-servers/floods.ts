/**
 * floods: a raw JSON-RPC 2025-11-25 server (no SDK: it must write as fast as a pipe takes it)
 * whose one tool, `flood`, writes what FAKE_FLOOD says before it answers, then exits on stdin
 * EOF like a well-behaved server. The oracle for the record's bounds (harness/drill/executor/record-cap.ts):
 *
 * - `stdout:<bytes>`: noise lines of about 1 KiB on stdout, `<bytes>` in all;
 * - `lines:<n>`: exactly `<n>` such noise lines on stdout;
 * - `line:<bytes>`: one stdout line of `<bytes>` with no newline until its end;
 * - `unterminated:<bytes>`: `<bytes>` on stdout with no newline at all (the server then waits);
 * - `stderr:<bytes>`: lines of about 1 KiB on stderr;
 * - `binary`: noise lines with invalid UTF-8 and NUL bytes on stdout and stderr.
 *
 * `FAKE_FLOOD_SECRET`: written into every noise line (redaction applies to what is kept).
 * Writes wait for 'drain', so the server's own memory stays small whatever it floods.
 */
import { once } from 'node:events';

const flood = process.env.FAKE_FLOOD ?? 'stdout:1048576';
const secret = process.env.FAKE_FLOOD_SECRET ?? '';

function send(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
}

async function write(stream: NodeJS.WriteStream, chunk: string | Buffer): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

async function pour(stream: NodeJS.WriteStream, total: number, line: (n: number) => string): Promise<void> {
  let written = 0;
  for (let n = 0; written < total; n++) {
    const text = line(n);
    written += text.length;
    await write(stream, text);
  }
}

const LINE = 'x'.repeat(1000);

async function doFlood(): Promise<void> {
  const [kind, size] = flood.split(':');
  const bytes = Number(size ?? 0);
  if (kind === 'stdout') return pour(process.stdout, bytes, (n) => `noise ${n} ${secret} ${LINE}\n`);
  if (kind === 'lines') {
    for (let n = 0; n < bytes; n++) await write(process.stdout, `noise ${n} ${secret} ${LINE}\n`);
    return;
  }
  if (kind === 'stderr') return pour(process.stderr, bytes, (n) => `log ${n} ${secret} ${LINE}\n`);
  if (kind === 'line' || kind === 'unterminated') {
    const block = 'y'.repeat(64 * 1024);
    await write(process.stdout, `start ${secret} `);
    for (let written = 0; written < bytes; written += block.length) await write(process.stdout, block);
    if (kind === 'line') await write(process.stdout, '\n');
    return;
  }
  if (kind === 'binary') {
    const bad = Buffer.from([0x6e, 0x75, 0x6c, 0x00, 0x20, 0xff, 0xfe, 0xc3, 0x28, 0x20, 0xe2, 0x82, 0x0a]);
    await write(process.stdout, bad);
    await write(process.stderr, bad);
    return;
  }
  throw new Error(`FAKE_FLOOD: expected stdout:<bytes>, lines:<n>, stderr:<bytes>, line:<bytes>, unterminated:<bytes> or binary, got ${flood}`);
}

async function handle(m: { id?: string | number; method?: string; params?: Record<string, unknown> }): Promise<void> {
  if (m.id === undefined) return;
  if (m.method === 'initialize') {
    return send({ id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'floods', version: '1' } } });
  }
  if (m.method === 'ping') return send({ id: m.id, result: {} });
  if (m.method === 'tools/list') {
    return send({ id: m.id, result: { tools: [{ name: 'flood', description: 'writes FAKE_FLOOD', inputSchema: { type: 'object' } }] } });
  }
  if (m.method === 'tools/call') {
    await doFlood();
    if (flood.startsWith('unterminated')) return; // the answer would end the line: it never comes
    return send({ id: m.id, result: { content: [{ type: 'text', text: 'flooded' }] } });
  }
  send({ id: m.id, error: { code: -32601, message: 'Method not found' } });
}

let buffer = '';
let queue = Promise.resolve();
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  let index: number;
  while ((index = buffer.indexOf('\n')) !== -1) {
    const line = buffer.slice(0, index);
    buffer = buffer.slice(index + 1);
    const message = JSON.parse(line) as Parameters<typeof handle>[0];
    queue = queue.then(() => handle(message));
  }
});
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
