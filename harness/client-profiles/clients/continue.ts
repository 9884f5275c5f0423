import type { ClientProfile } from '../types.js';
import { cited, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, SDK_ENV, TS_SDK_LADDER } from './steps.js';

const CONNECTION = {
  repo: 'continuedev/continue',
  where: 'core/context/mcp/MCPConnection.ts',
  what: "constructStdioTransport: StdioClientTransport({ env, stderr: 'pipe' }), stderr kept for errors",
  version: 'd0a3c0b6 (extension 1.3.40)',
};
const SDK = { repo: 'continuedev/continue', where: 'core/package-lock.json', what: '@modelcontextprotocol/sdk resolves 1.29.0', version: 'd0a3c0b6' };
const TRANSPORT = {
  repo: 'modelcontextprotocol/typescript-sdk',
  where: 'src/client/stdio.ts',
  what: 'start(): env = getDefaultEnvironment() + the given env; close(): the 2 s + 2 s ladder',
  version: 'v1.29.0 (e12cbd70)',
};

export const continueDev: ClientProfile = {
  name: 'continue',
  client: 'Continue VS Code extension (core MCPConnection)',
  behaviours: [
    {
      name: 'continue',
      versions: { label: '1.3.40', first: '1.3.40', last: '1.3.40', since: 'd0a3c0b6, the extension 1.3.40 read, on SDK 1.29.0' },
      client: 'Continue VS Code extension 1.3.40 (core MCPConnection) on @modelcontextprotocol/sdk 1.29.0',
      spawn: {
        group: 'same',
        // Continue's own names (COMMONS_ENV_VARS and PATH) merged by the SDK over its default six.
        env: { kind: 'allowlist', names: [...SDK_ENV, 'USERPROFILE', 'USERNAME'] },
        parentDeathSignal: null,
        stderr: 'pipe-read',
        stdio: 'socketpair',
      },
      stop: TS_SDK_LADDER,
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(CONNECTION, SDK, NODE_STDIO_SOCKETPAIR),
        env: cited(
          { ...CONNECTION, what: "COMMONS_ENV_VARS (HOME, USER, USERPROFILE, LOGNAME, USERNAME) + config, PATH its own or the login shell's" },
          TRANSPORT,
        ),
        stop: cited({ ...CONNECTION, what: 'disconnect(): client.close(), then transport.close()' }, SDK, TRANSPORT, NODE_STDIN_ON_EXIT),
        crash: cited({ ...CONNECTION, what: 'no detached spawn, no parent-death signal' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in MCPConnection.ts' },
      },
    },
  ],
};
