import type { ClientProfile } from '../types.js';
import { cited, signal } from './steps.js';

const CORE = {
  repo: 'cline/cline',
  where: 'sdk/packages/core/src/extensions/mcp/client.ts',
  what: "StdioMcpClient.spawnProcess: spawn(command, args, { env: process.env + config, stdio: ['pipe', 'pipe', 'pipe'] }), stderr kept (16 KiB)",
  version: '21cb8d25 (@cline/core 0.0.78)',
};
const BUN = { repo: 'cline/cline', where: 'apps/cli/src/index.ts', what: '#!/usr/bin/env bun: @cline/cli 3.0.56 runs under Bun', version: '21cb8d25' };

export const clineCli: ClientProfile = {
  name: 'cline-cli',
  client: 'Cline CLI on @cline/core StdioMcpClient (no SDK transport)',
  behaviours: [
    {
      name: 'cline-cli',
      versions: { label: '3.0.56', first: '3.0.56', last: '3.0.56', since: '21cb8d25, @cline/cli 3.0.56 and @cline/core 0.0.78 read' },
      client: 'Cline CLI 3.0.56 (Bun) on @cline/core 0.0.78 StdioMcpClient',
      spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
      stop: [signal('SIGTERM', 'child')],
      closesStdinWhenChildExits: true,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        // The stdio kind under Bun was not read: socketpair is the harness's Node default.
        spawn: cited(CORE, BUN),
        env: cited({ ...CORE, what: 'env: { ...process.env, ...config env }' }),
        stop: cited(
          { ...CORE, what: 'disconnect(): child.kill() (SIGTERM), no stdin close, no wait' },
          { repo: 'oven-sh/bun', where: 'src/js/node/child_process.ts', what: 'ChildProcess#handleOnExit destroys stdin', version: '7cd72933' },
        ),
        crash: cited({ ...CORE, what: 'no detached spawn, no parent-death signal' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in client.ts' },
      },
    },
  ],
};
