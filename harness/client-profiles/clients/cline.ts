import type { ClientProfile } from '../types.js';
import { cited, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, SDK_ENV, TS_SDK_LADDER } from './steps.js';

const HUB = {
  repo: 'cline/cline',
  where: 'apps/vscode/src/services/mcp/McpHub.ts',
  what: "connectToServer, stdio: StdioClientTransport({ env: getDefaultEnvironment() + config, stderr: 'pipe' }), stderr read into the log",
  version: '21cb8d25 (extension 4.1.13)',
};
const SDK = { repo: 'cline/cline', where: 'bun.lock', what: '@modelcontextprotocol/sdk resolves 1.30.0', version: '21cb8d25' };

export const cline: ClientProfile = {
  name: 'cline',
  client: 'Cline VS Code extension (McpHub)',
  behaviours: [
    {
      name: 'cline',
      versions: { label: '4.1.13', first: '4.1.13', last: '4.1.13', since: '21cb8d25, the extension 4.1.13 read, on SDK 1.30.0' },
      client: 'Cline VS Code extension 4.1.13 (McpHub) on @modelcontextprotocol/sdk 1.30.0',
      spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      // deleteConnection: transport.close() runs the SDK's ladder; the client.close() after it finds no process.
      stop: TS_SDK_LADDER,
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
            what: 'close(): stdin end, 2 s, SIGTERM, 2 s, SIGKILL, the direct child',
            version: '1.30.0 (2d889f2b)',
          },
          NODE_STDIN_ON_EXIT,
        ),
        crash: cited({ ...HUB, what: 'no detached spawn, no parent-death signal: only the pipes tie the server to the extension host' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in McpHub.ts' },
      },
    },
  ],
};
