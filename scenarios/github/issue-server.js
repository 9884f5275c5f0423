// A small MCP server with one write-capable tool, `create_issue`, on a GitHub-shaped API
// (GITHUB_API_URL, GITHUB_TOKEN; HTTPS, trusted through NODE_EXTRA_CA_CERTS, which the drill
// sets to the run's CA). As most servers do, it just creates the issue: after a crash and a
// retry there are two. With ISSUE_SEARCH_FIRST=1 it does the fix: it writes the call's
// correlation id into the body as a marker and searches for that marker before creating, so
// a retry finds the issue its first attempt made.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const API = process.env.GITHUB_API_URL;
const headers = { authorization: `Bearer ${process.env.GITHUB_TOKEN}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' };
const searchFirst = process.env.ISSUE_SEARCH_FIRST === '1';
const text = (t, isError = false) => ({ isError, content: [{ type: 'text', text: t }] });

const server = new McpServer({ name: 'issue-server', version: '1.0.0' });
server.registerTool('create_issue', { description: 'Open an issue', inputSchema: { repo: z.string(), title: z.string() } }, async ({ repo, title }, extra) => {
  const id = extra._meta?.['dev.crash-drill/correlation-id'];
  const marker = searchFirst && id ? `<!-- crash-drill-key: ${id} -->` : '';
  if (marker) {
    const q = encodeURIComponent(`repo:${repo} in:body "${marker}"`);
    const found = await fetch(`${API}/search/issues?q=${q}`, { headers });
    const { items = [] } = found.ok ? await found.json() : {};
    if (items.length > 0) return text(`issue #${items[0].number} exists`);
  }
  const response = await fetch(`${API}/repos/${repo}/issues`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title, body: `Opened by issue-server.\n${marker}` }),
  });
  if (!response.ok) return text(`create failed: HTTP ${response.status}`, true);
  const issue = await response.json();
  return text(`opened issue #${issue.number}`);
});

// The SDK's StdioServerTransport does not listen for stdin 'end' (typescript-sdk #2002).
process.stdin.on('end', () => process.exit(0));
process.stdout.on('error', () => process.exit(0));
await server.connect(new StdioServerTransport());
