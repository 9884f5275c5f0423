import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const LAUNCHER = { repo: 'openai/codex', where: 'codex-rs/rmcp-client/src/stdio_server_launcher.rs' };

export const codex: ClientProfile = {
  name: 'codex',
  client: 'OpenAI Codex CLI (codex-rs/rmcp-client, local stdio launcher)',
  behaviours: [
    {
      name: 'codex',
      versions: {
        label: 'newest-read',
        first: null,
        last: null,
        since: 'the newest stored version of stdio_server_launcher.rs (no commit given by the index)',
      },
      client: 'OpenAI Codex CLI (codex-rs/rmcp-client, local stdio launcher), newest stored version',
      spawn: {
        group: 'own-group',
        env: { kind: 'allowlist', names: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', '__CF_USER_TEXT_ENCODING', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'] },
        parentDeathSignal: null,
        stderr: 'pipe-read',
        stdio: 'pipe',
      },
      stop: [signal('SIGTERM', 'group'), wait(2000, 'group'), signal('SIGKILL', 'group', 'group'), closeStdin],
      closesStdinWhenChildExits: false,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited({
          ...LAUNCHER,
          what: 'launch_stdio_server_locally: process_group(0), kill_on_drop, stdin/stdout piped (tokio Command)',
          version: '6e1452d0',
        }),
        env: cited({
          repo: 'openai/codex',
          where: 'codex-rs/rmcp-client/src/utils.rs',
          what: 'create_env_for_mcp_server, DEFAULT_ENV_VARS',
          version: '45e887e7',
        }),
        stop: cited({
          ...LAUNCHER,
          what: 'StdioServerTransport::close -> LocalProcessTerminator::terminate_and_observe (killpg SIGTERM, poll, killpg SIGKILL at 2 s), then stdin closed',
          version: 'newest stored version',
        }),
        crash: cited({ ...LAUNCHER, what: 'launch_stdio_server_locally: no parent-death signal set', version: '6e1452d0' }),
        abandon: { unsourced: 'a dropped handle terminates the server (ProcessGroupGuard); no path that leaves one unsignalled was read' },
      },
    },
  ],
};
