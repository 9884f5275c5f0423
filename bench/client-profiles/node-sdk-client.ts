/**
 * The TypeScript SDK's own StdioClientTransport, run as is: the installed 1.32.2 for `ts-sdk`,
 * or Gemini CLI's pin, installed apart by the bench, for `gemini-cli` (1.23.0 from v0.52.0,
 * 1.26.0 for v0.27 to v0.51).
 *
 *   node node-sdk-client.js <ts-sdk|gemini-cli> <sdk package folder> <command> [args...]
 *
 * ts-sdk: Client.close() (which closes the transport). gemini-cli: what McpClient.disconnect in
 * packages/core/src/tools/mcp-client.ts does: transport.close(), then client.close(), on a
 * transport given the whole environment less secret-named variables and stderr 'pipe'. Either
 * way the client then lives on, holding the pipes the SDK left open. Reports like
 * scripted_client.py, one JSON line each.
 */
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const GEMINI_REDACTED = /TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT/i;

type Transport = { close(): Promise<void>; pid: number | null };
type Client = {
  connect(t: Transport): Promise<void>;
  close(): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(p: object): Promise<{ content: { text: string }[] }>;
};

const [flavour, sdkDir, command, ...args] = process.argv.slice(2);
if ((flavour !== 'ts-sdk' && flavour !== 'gemini-cli') || !sdkDir || !command) {
  process.stderr.write('usage: node-sdk-client.js <ts-sdk|gemini-cli> <sdk package folder> <command> [args...]\n');
  process.exit(2);
}
const load = (file: string) => import(pathToFileURL(`${sdkDir}/dist/esm/client/${file}`).href);
const { Client } = (await load('index.js')) as { Client: new (info: object) => Client };
const { StdioClientTransport } = (await load('stdio.js')) as { StdioClientTransport: new (params: object) => Transport };

const report = (fields: object) => process.stdout.write(`${JSON.stringify(fields)}\n`);

const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !GEMINI_REDACTED.test(name)));
const transport = new StdioClientTransport(flavour === 'ts-sdk' ? { command, args } : { command, args, env, stderr: 'pipe' });
const client = new Client({ name: 'ground-truth', version: '0' });
await client.connect(transport);
const { tools } = await client.listTools();
let helper: number | null = null;
if (tools.some((t) => t.name === 'spawn-helper')) {
  const result = await client.callTool({ name: 'spawn-helper', arguments: {} });
  helper = Number(result.content[0].text.split(' ').pop());
}
report({ ready: true, child: transport.pid, helper });

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'stop') continue;
  const started = performance.now();
  if (flavour === 'gemini-cli') await transport.close();
  await client.close();
  report({ stopped: true, ms: Math.round(performance.now() - started) });
  break;
}
// Lives on: the readline interface is done with stdin, so a timer keeps the loop alive.
setInterval(() => {}, 1 << 30);
