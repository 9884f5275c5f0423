// A small MCP server with one write-capable tool, `deploy`, that talks to a deploy API whose
// base URL and token come from its own environment (DEPLOY_API, DEPLOY_TOKEN), the way real
// servers are configured. It forwards the client's correlation id as the Idempotency-Key and
// exits when its input closes.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'deploy-server', version: '1.0.0' });
server.registerTool(
  'deploy',
  { description: 'Deploy a service', inputSchema: { service: z.string() }, annotations: { destructiveHint: true } },
  async ({ service }, extra) => {
    const key = extra._meta?.['dev.crash-drill/correlation-id'];
    const response = await fetch(`${process.env.DEPLOY_API}/deploys`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${process.env.DEPLOY_TOKEN}`,
        'content-type': 'application/json',
        ...(key ? { 'idempotency-key': key, 'x-correlation-id': key } : {}),
      },
      body: JSON.stringify({ service }),
    });
    const body = await response.json();
    if (!response.ok) return { isError: true, content: [{ type: 'text', text: `deploy failed: ${response.status}` }] };
    return { content: [{ type: 'text', text: `deployed ${service} as ${body.deployId}` }] };
  },
);

// The SDK's StdioServerTransport does not listen for stdin 'end' (typescript-sdk #2002).
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
await server.connect(new StdioServerTransport());
