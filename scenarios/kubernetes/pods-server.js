// A small MCP server that manages pods the way Kubernetes clients do: everything it knows of the
// cluster comes from a kubeconfig file (KUBECONFIG: the API server's URL, its CA as
// certificate-authority-data, a bearer token), it talks HTTPS and trusts only that CA, and its
// writes carry no Idempotency-Key: Kubernetes is idempotent by the name the client gives a pod.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parse } from 'yaml';
import * as z from 'zod';

const config = parse(readFileSync(process.env.KUBECONFIG, 'utf8'));
const context = config.contexts.find((c) => c.name === config['current-context']).context;
const cluster = config.clusters.find((c) => c.name === context.cluster).cluster;
const user = config.users.find((u) => u.name === context.user).user;
const namespace = context.namespace ?? 'default';

/** One API call over HTTPS, trusting the kubeconfig's CA only; resolves to status and parsed body. */
function api(method, path, body) {
  const url = new URL(path, cluster.server);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        ca: Buffer.from(cluster['certificate-authority-data'], 'base64'),
        headers: { authorization: `Bearer ${user.token}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const text = (t, isError = false) => ({ isError, content: [{ type: 'text', text: t }] });
const server = new McpServer({ name: 'pods-server', version: '1.0.0' });
server.registerTool('create_pod', { description: 'Create a pod', inputSchema: { name: z.string(), image: z.string() } }, async ({ name, image }) => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name, image }] } };
  const { status } = await api('POST', `/api/v1/namespaces/${namespace}/pods`, pod);
  // 409 AlreadyExists: a pod of that name was made before, by this call's earlier attempt.
  if (status === 201 || status === 409) return text(status === 201 ? `created pod ${name}` : `pod ${name} exists`);
  return text(`create failed: HTTP ${status}`, true);
});
server.registerTool('delete_pod', { description: 'Delete a pod', inputSchema: { name: z.string() } }, async ({ name }) => {
  const { status } = await api('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`);
  return status === 200 || status === 404 ? text(`pod ${name} deleted`) : text(`delete failed: HTTP ${status}`, true);
});
server.registerTool('list_pods', { description: 'List pods', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
  const { status, body } = await api('GET', `/api/v1/namespaces/${namespace}/pods`);
  return status === 200 ? text(body.items.map((p) => p.metadata.name).join('\n') || 'no pods') : text(`list failed: HTTP ${status}`, true);
});

// The SDK's StdioServerTransport does not listen for stdin 'end' (typescript-sdk #2002).
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
await server.connect(new StdioServerTransport());
