import type { ClientProfile } from '../types.js';
import { cited, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, SDK_ENV, TS_SDK_LADDER } from './steps.js';

const TRANSPORT = {
  repo: '@modelcontextprotocol/sdk',
  where: 'dist/esm/client/stdio.js',
  what: 'StdioClientTransport.start (cross-spawn, stdio pipe, no detached), close',
  version: '1.32.2',
};

export const tsSdk: ClientProfile = {
  name: 'ts-sdk',
  client: '@modelcontextprotocol/sdk StdioClientTransport',
  behaviours: [
    {
      name: 'ts-sdk',
      versions: { label: '>=1.24', first: '1.24', last: '1.32', since: '1.24.0: ace9b62d "fix hanging stdio servers (#1200)"' },
      client: '@modelcontextprotocol/sdk StdioClientTransport 1.24.0 to 1.32.2',
      spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'inherit', stdio: 'socketpair' },
      stop: TS_SDK_LADDER,
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(TRANSPORT, NODE_STDIO_SOCKETPAIR),
        env: cited({ ...TRANSPORT, what: 'DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment' }),
        stop: cited(
          { ...TRANSPORT, what: 'StdioClientTransport.close: stdin end, 2 s, SIGTERM, 2 s, SIGKILL' },
          {
            repo: 'modelcontextprotocol/typescript-sdk',
            where: 'src/client/stdio.ts',
            what: 'close(): the ladder, added by #1200',
            version: '1.24.0 (ace9b62d)',
          },
          NODE_STDIN_ON_EXIT,
        ),
        crash: cited({ ...TRANSPORT, what: 'no parent-death signal: the child keeps only its pipes to the client' }),
        abandon: { unsourced: 'the transport has no path that drops a server unclosed; a host that never calls close() would, and none was read' },
      },
    },
  ],
};
