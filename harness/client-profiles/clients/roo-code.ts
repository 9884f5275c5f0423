import type { ClientProfile } from '../types.js';
import { cited, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, SDK_ENV, signal } from './steps.js';

const HUB = {
  repo: 'RooCodeInc/Roo-Code',
  where: 'src/services/mcp/McpHub.ts',
  what: "connectToServer, stdio: StdioClientTransport({ env: getDefaultEnvironment() + config, stderr: 'pipe' }), stderr read",
  version: 'cb836567 (3.52.1)',
};
const SDK = { repo: 'RooCodeInc/Roo-Code', where: 'pnpm-lock.yaml', what: '@modelcontextprotocol/sdk 1.12.0 (src/package.json pins it)', version: 'cb836567' };

export const rooCode: ClientProfile = {
  name: 'roo-code',
  client: 'Roo Code (McpHub)',
  behaviours: [
    {
      name: 'roo-code',
      versions: { label: '3.52.1', first: '3.52.1', last: '3.52.1', since: 'cb836567, Roo Code 3.52.1 read, on SDK 1.12.0' },
      client: 'Roo Code 3.52.1 (McpHub) on @modelcontextprotocol/sdk 1.12.0',
      spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      stop: [signal('SIGTERM', 'child')],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(HUB, SDK, NODE_STDIO_SOCKETPAIR),
        env: cited({ ...HUB, what: 'env: { ...getDefaultEnvironment(), ...config env }' }),
        stop: cited(
          { ...HUB, what: 'deleteConnection: transport.close(), then client.close()' },
          SDK,
          {
            repo: 'modelcontextprotocol/typescript-sdk',
            where: 'src/client/stdio.ts',
            what: "close(): abort the spawn's signal: SIGTERM to the child, nothing else",
            version: '1.12.0 (0c4b3082)',
          },
          NODE_STDIN_ON_EXIT,
        ),
        crash: cited({ ...HUB, what: 'no detached spawn, no parent-death signal' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in McpHub.ts' },
      },
    },
  ],
};
