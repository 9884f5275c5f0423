// A small MCP server with one write-capable tool, `deploy`, that talks to a deploy API whose
// base URL and token come from its own environment (DEPLOY_API, DEPLOY_TOKEN), the way real
// servers are configured. It forwards the client's correlation id as the Idempotency-Key, keeps
// its own activity record (docs/remote.md, "The server's own activity record"), and when its input
// closes gives the deploys in flight a deadline, records what is still open, and exits.
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

// The activity record: one JSON object a line, appended before the request is sent (a write that
// returns before the send, not a buffered logger). In production, your own log file.
const RECORD = process.env.CRASH_DRILL_ACTIVITY_FILE;
function record(key, phase, fields = {}) {
  if (RECORD) appendFileSync(RECORD, `${JSON.stringify({ t: new Date().toISOString(), key, phase, operation: 'deploy', ...fields })}\n`);
}

/** The deploys in flight, by key: what is still open at shutdown is recorded unresolved. */
const inFlight = new Map();
const SHUTDOWN_DEADLINE_MS = 1000;

const server = new McpServer({ name: 'deploy-server', version: '1.0.0' });
server.registerTool(
  'deploy',
  { description: 'Deploy a service', inputSchema: { service: z.string() }, annotations: { destructiveHint: true } },
  async ({ service }, extra) => {
    const key = extra._meta?.['dev.crash-drill/correlation-id'] ?? randomUUID();
    record(key, 'started', { target: service });
    const work = (async () => {
      let response;
      try {
        response = await fetch(`${process.env.DEPLOY_API}/deploys`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${process.env.DEPLOY_TOKEN}`,
            'content-type': 'application/json',
            'idempotency-key': key,
            'x-correlation-id': key,
          },
          body: JSON.stringify({ service }),
        });
      } catch (error) {
        // Sent, or not: the answer was lost, so whether it took effect is not known.
        record(key, 'unresolved', { target: service });
        throw error;
      }
      const body = await response.json().catch(() => ({}));
      record(key, 'result', { target: service, remoteId: body.deployId, status: response.status });
      return { response, body };
    })();
    inFlight.set(key, { service, work });
    try {
      const { response, body } = await work;
      if (!response.ok) return { isError: true, content: [{ type: 'text', text: `deploy failed: ${response.status}` }] };
      return { content: [{ type: 'text', text: `deployed ${service} as ${body.deployId}` }] };
    } catch (error) {
      return { isError: true, content: [{ type: 'text', text: `deploy failed: ${error.message}` }] };
    } finally {
      inFlight.delete(key);
    }
  },
);

// At shutdown, the deploys in flight get a deadline; what is still open then is recorded
// unresolved, and the server exits. The SDK's StdioServerTransport does not listen for stdin
// 'end' (typescript-sdk #2002), so the server does.
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  let timer;
  const deadline = new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_DEADLINE_MS)));
  await Promise.race([Promise.allSettled([...inFlight.values()].map((d) => d.work)), deadline]);
  clearTimeout(timer);
  for (const [key, { service }] of inFlight) record(key, 'unresolved', { target: service });
  process.exit(0);
}
process.stdin.on('end', shutdown);
process.stdout.on('error', shutdown);
await server.connect(new StdioServerTransport());
