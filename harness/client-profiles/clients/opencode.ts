import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const MCP = {
  repo: 'anomalyco/opencode',
  where: 'packages/opencode/src/mcp/mcp.ts',
  what: "connectLocal: StdioClientTransport({ env: process.env + config, stderr: 'pipe' }), stderr logged",
  version: '3e1504e5',
};
const SDK = {
  repo: 'anomalyco/opencode',
  where: 'packages/opencode/package.json',
  what: 'opencode 1.18.34 pins @modelcontextprotocol/sdk 1.29.0',
  version: '006d1ab3',
};

export const opencode: ClientProfile = {
  name: 'opencode',
  client: 'OpenCode (Bun): an instance disposed, its MCP state finalizer',
  behaviours: [
    {
      name: 'opencode',
      versions: {
        label: '1.18.34',
        first: '1.18.34',
        last: '1.18.34',
        since: 'mcp.ts at 3e1504e5 and package.json at 006d1ab3 (opencode 1.18.34), read from the index',
      },
      client: 'OpenCode 1.18.34 (Bun) on @modelcontextprotocol/sdk 1.29.0',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      // The finalizer SIGTERMs what `pgrep -P` finds below the child, then client.close(): the SDK's ladder.
      stop: [
        signal('SIGTERM', 'descendants'),
        closeStdin,
        wait(2000, 'child'),
        signal('SIGTERM', 'child', 'child'),
        wait(2000, 'child'),
        signal('SIGKILL', 'child', 'child'),
      ],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        // The stdio kind under Bun was not read: socketpair is the harness's Node default.
        spawn: cited(MCP, SDK),
        env: cited({ ...MCP, what: 'env: { ...process.env, BUN_BE_BUN for the opencode command, ...config environment }' }),
        stop: cited(
          {
            ...MCP,
            what: 'the state finalizer: descendants (a pgrep -P walk from the transport pid), SIGTERM each, then client.close(); disconnect: client.close() alone',
          },
          SDK,
          {
            repo: 'modelcontextprotocol/typescript-sdk',
            where: 'src/client/stdio.ts',
            what: 'close(): the 2 s + 2 s ladder, the direct child',
            version: 'v1.29.0 (e12cbd70)',
          },
        ),
        crash: cited({ ...MCP, what: 'no detached spawn, no parent-death signal' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in mcp.ts' },
      },
    },
  ],
};
