/**
 * hardcoded-host: a server that cannot be pointed at the drill remote. Its tools call a fixed
 * SaaS host, `https://api.example.invalid` (RFC 6761: `.invalid` never resolves), like many
 * real servers do; only the crash-drill preload (harness/preload/) can route them to the remote.
 * - `deploy {service}`: `POST /actions` with global fetch;
 * - `deploy-legacy {service}`: the same with `https.request` (a named ESM import, which the
 *   preload must patch too).
 * Both send the drill client's correlation id as Idempotency-Key, and `Authorization: Bearer
 * $EXAMPLE_API_KEY` only when that variable is set (a server's own credential). Otherwise it
 * is well-behaved: on stdin EOF, a stdout error or SIGTERM it takes no new call, lets its
 * requests in flight settle (at most 1 s) and exits 0.
 */
import { request as httpsRequest } from 'node:https';
import { McpServer, StdioServerTransport, z } from './lib/sdk.js';
import { CORRELATION_META_KEY } from '../harness/shared/protocol.js';
import { exitWithMark } from './lib/exit-mark.js';
import { createLog } from './lib/log.js';

export const HARDCODED_API = 'https://api.example.invalid';
const SETTLE_MS = 1000;

const log = createLog('hardcoded-host');
const inflight = new Set<Promise<unknown>>();
let stopping = false;

interface Answer {
  status: number;
  body: string;
}

function headersFor(correlationId: string | undefined, length: number): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Content-Length': String(length) };
  if (correlationId) headers['Idempotency-Key'] = correlationId;
  const key = process.env.EXAMPLE_API_KEY;
  if (key) headers.Authorization = `Bearer ${key}`;
  return headers;
}

async function viaFetch(body: string, correlationId: string | undefined): Promise<Answer> {
  const headers = headersFor(correlationId, Buffer.byteLength(body));
  delete headers['Content-Length']; // fetch computes it
  const response = await fetch(`${HARDCODED_API}/actions`, { method: 'POST', headers, body });
  return { status: response.status, body: await response.text() };
}

function viaHttps(body: string, correlationId: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${HARDCODED_API}/actions`, { method: 'POST', headers: headersFor(correlationId, Buffer.byteLength(body)) }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  const causeText = cause instanceof Error ? ` (${cause.message})` : '';
  return `${error.message}${causeText}${code && !`${error.message}${causeText}`.includes(code) ? ` [${code}]` : ''}`;
}

type ToolAnswer = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };

async function deploy(tool: string, send: typeof viaFetch, service: string, meta: Record<string, unknown> | undefined): Promise<ToolAnswer> {
  if (stopping) return { content: [{ type: 'text', text: 'the server lost its client and starts no new write' }], isError: true };
  const correlation = meta?.[CORRELATION_META_KEY];
  const pending = send(JSON.stringify({ op: 'deploy', target: service }), typeof correlation === 'string' ? correlation : undefined);
  inflight.add(pending);
  try {
    const answer = await pending;
    const id = (() => {
      try {
        return (JSON.parse(answer.body) as { id?: unknown }).id;
      } catch {
        return undefined;
      }
    })();
    if (answer.status >= 300 || typeof id !== 'string') return { content: [{ type: 'text', text: `${tool} failed: HTTP ${answer.status}` }], isError: true };
    return { content: [{ type: 'text', text: `effect ${id}` }] };
  } catch (error) {
    return { content: [{ type: 'text', text: `${tool} failed: ${describe(error)}` }], isError: true };
  } finally {
    inflight.delete(pending);
  }
}

const server = new McpServer({ name: 'hardcoded-host', version: '0.1.0' }, { capabilities: { tools: {} } });
const input = { service: z.string() };
server.registerTool('deploy', { description: `POST ${HARDCODED_API}/actions with fetch`, inputSchema: input }, ({ service }, extra) =>
  deploy('deploy', viaFetch, service, extra._meta),
);
server.registerTool('deploy-legacy', { description: `POST ${HARDCODED_API}/actions with https.request`, inputSchema: input }, ({ service }, extra) =>
  deploy('deploy-legacy', viaHttps, service, extra._meta),
);

async function shutdown(why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${why}: shutting down`);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...inflight]), new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_MS)))]);
  clearTimeout(timer);
  exitWithMark(0);
}

// The SDK's StdioServerTransport has no stdin 'end' listener (typescript-sdk #2002): listen here.
process.stdin.once('end', () => void shutdown('stdin end'));
process.stdin.once('close', () => void shutdown('stdin close'));
process.stdout.on('error', (error: NodeJS.ErrnoException) => void shutdown(`stdout ${error.code ?? 'error'}`));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await server.connect(new StdioServerTransport());
log(`ready (pid ${process.pid})`);
