/**
 * The one SDK server every container fake server is: `echo`, and `start-sibling` (runs
 * `docker run -d` through the engine socket mounted into its container). Each file in this
 * folder picks one behaviour; what differs between them is only what they do on stdin EOF and
 * on SIGTERM, and that is the whole point of each.
 */
import { execFile } from 'node:child_process';
import { McpServer, StdioServerTransport, z } from '../lib/sdk.js';

export type ContainerServerOptions = {
  name: string;
  /** Exit 0 when stdin ends (the SDK transport alone does not: typescript-sdk #2002). */
  exitOnEof: boolean;
  /**
   * 'exit': a SIGTERM handler that exits 0. 'default': no handler, so the default action
   * applies, which the kernel does not give to PID 1 of a PID namespace: without `--init` the
   * server is PID 1 of its container and SIGTERM does nothing.
   */
  sigterm: 'exit' | 'default';
};

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

export async function runContainerServer(opts: ContainerServerOptions): Promise<void> {
  const server = new McpServer({ name: opts.name, version: '0.1.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Answers with the text it was given.', inputSchema: { text: z.string() } }, async ({ text: value }) =>
    text(value),
  );
  server.registerTool(
    'start-sibling',
    { description: 'Starts a detached container next to this one and answers with its id.', inputSchema: {} },
    () =>
      new Promise((resolve) => {
        const image = process.env.SIBLING_IMAGE ?? 'crash-drill-node:local';
        const args = ['run', '-d', '--pull', 'never', image, '/usr/bin/node', '-e', 'setInterval(() => {}, 1000)'];
        execFile('docker', args, { timeout: 30_000 }, (error, stdout, stderr) => {
          resolve(error ? { ...text(`docker run failed: ${stderr || error.message}`), isError: true } : text(`sibling ${stdout.trim()}`));
        });
      }),
  );
  // A live handle, like every server with a timer or a subscription: only an exit on EOF ends it.
  setInterval(() => {}, 1000);
  if (opts.sigterm === 'exit') process.on('SIGTERM', () => process.exit(0));
  if (opts.exitOnEof) process.stdin.on('end', () => process.exit(0));
  await server.connect(new StdioServerTransport());
}
