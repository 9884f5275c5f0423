/**
 * The TypeScript SDK's own StdioClientTransport, run as is, at the version each client pins
 * (installed apart by the bench, setup.ts), used the way that client's code uses it:
 *
 *   node node-sdk-client.js <flavour> <sdk package folder> <command> [args...]
 *
 * - ts-sdk (1.32.2): Client.close().
 * - gemini-cli (1.23.0 from v0.52.0, 1.26.0 for v0.27 to v0.51): McpClient.disconnect in packages/core/src/tools/mcp-client.ts:
 *   transport.close(), then client.close(); the whole environment less secret-named variables,
 *   stderr 'pipe' (read only in debug mode: not here).
 * - cline (1.30.0) and roo-code (1.12.0): McpHub.deleteConnection: transport.close(), then
 *   client.close(); env getDefaultEnvironment() + config, stderr 'pipe', read into the log.
 * - continue (1.29.0): MCPConnection.disconnect: client.close(), then transport.close(); env
 *   HOME, USER, USERPROFILE, LOGNAME, USERNAME where set, and PATH; stderr 'pipe', read.
 * - opencode (1.29.0): the MCP state's finalizer: the descendants of the child found by a
 *   `pgrep -P` walk get SIGTERM, then client.close(); env the whole environment, stderr 'pipe', read.
 *
 * Either way the client then lives on, holding the pipes the SDK left open. Reports like
 * scripted_client.py, one JSON line each.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const GEMINI_REDACTED = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;
const CONTINUE_NAMES = ['HOME', 'USER', 'USERPROFILE', 'LOGNAME', 'USERNAME'];
const FLAVOURS = ['ts-sdk', 'gemini-cli', 'cline', 'roo-code', 'continue', 'opencode'] as const;
type Flavour = (typeof FLAVOURS)[number];

type Transport = { close(): Promise<void>; pid?: number | null; stderr: NodeJS.ReadableStream | null };
type Client = {
  connect(t: Transport): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: object): Promise<{ content: { text: string }[] }>;
};

const [flavourArg, sdkDir, command, ...args] = process.argv.slice(2);
if (!(FLAVOURS as readonly string[]).includes(flavourArg) || !sdkDir || !command) {
  process.stderr.write(`usage: node-sdk-client.js <${FLAVOURS.join('|')}> <sdk package folder> <command> [args...]\n`);
  process.exit(2);
}
const flavour = flavourArg as Flavour;
const load = (file: string) => import(pathToFileURL(`${sdkDir}/dist/esm/client/${file}`).href);
const { Client } = (await load('index.js')) as { Client: new (info: object, options?: object) => Client };
const { StdioClientTransport, getDefaultEnvironment } = (await load('stdio.js')) as {
  StdioClientTransport: new (params: object) => Transport;
  getDefaultEnvironment: () => Record<string, string>;
};

const report = (fields: object) => process.stdout.write(`${JSON.stringify(fields)}\n`);
const own = (pick: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && pick(e[0])));

function params(): object {
  switch (flavour) {
    case 'ts-sdk':
      return { command, args };
    case 'gemini-cli':
      return { command, args, env: own((name) => !GEMINI_REDACTED.test(name)), stderr: 'pipe' };
    case 'cline':
    case 'roo-code':
      return { command, args, env: { ...getDefaultEnvironment() }, stderr: 'pipe' };
    case 'continue':
      return { command, args, env: { ...own((name) => CONTINUE_NAMES.includes(name)), PATH: process.env.PATH ?? '' }, stderr: 'pipe' };
    case 'opencode':
      return { command, args, env: own(() => true), stderr: 'pipe' };
  }
}

/** What `pgrep -P` finds below `pid`, breadth first, as OpenCode's finalizer walks it. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  for (let i = -1; i < found.length; i++) {
    const parent = i < 0 ? pid : found[i];
    let out = '';
    try {
      out = execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' });
    } catch {
      // pgrep exits 1 when a process has no children
    }
    for (const token of out.split('\n')) {
      const child = Number.parseInt(token, 10);
      if (!Number.isNaN(child) && !found.includes(child)) found.push(child);
    }
  }
  return found;
}

const transport = new StdioClientTransport(params());
const client = new Client({ name: 'ground-truth', version: '0' }, { capabilities: {} });
await client.connect(transport);
// Every flavour but ts-sdk (stderr inherited) and gemini-cli (read only in debug mode) reads the piped stderr into its log.
if (flavour !== 'ts-sdk' && flavour !== 'gemini-cli') transport.stderr?.on('data', () => {});
const { tools } = await client.listTools();
let helper: number | null = null;
if (tools.some((t) => t.name === 'spawn-helper')) {
  const result = await client.callTool({ name: 'spawn-helper', arguments: {} });
  helper = Number(result.content[0].text.split(' ').pop());
}
// SDK 1.12.0 has no `pid`: its one child is then read from /proc (spawn runs on the main thread).
const child = transport.pid ?? (Number(readFileSync(`/proc/self/task/${process.pid}/children`, 'utf8').trim().split(' ')[0]) || null);
report({ ready: true, child, helper });

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stop') continue;
  const started = performance.now();
  if (flavour === 'gemini-cli' || flavour === 'cline' || flavour === 'roo-code') {
    await transport.close();
    await client.close();
  } else if (flavour === 'continue') {
    await client.close();
    await transport.close();
  } else if (flavour === 'opencode') {
    if (child !== null)
      for (const pid of descendants(child)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    await client.close();
  } else await client.close();
  report({ stopped: true, ms: Math.round(performance.now() - started) });
  break;
}
// Lives on: the readline interface is done with stdin, so a timer keeps the loop alive.
setInterval(() => {}, 1 << 30);
