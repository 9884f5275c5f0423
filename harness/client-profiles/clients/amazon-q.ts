import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const Q = 'aws/amazon-q-developer-cli';
const CLIENT = {
  repo: Q,
  where: 'crates/chat-cli/src/mcp_client/client.rs',
  what: 'into_service, stdio: tokio Command (config env, then every variable of the client), process_group(0), TokioChildProcess::builder(..).stderr(piped); init reads stderr into its log',
  version: '15cc8f3c (v1.19.7)',
};
const RMCP = {
  repo: 'modelcontextprotocol/rust-sdk',
  where: 'crates/rmcp/src/transport/child_process.rs',
  what: 'TokioChildProcess::graceful_shutdown: drop the stdin writer, wait up to MAX_WAIT_ON_DROP_SECS (3), kill the child (no group wrapper)',
  version: 'rmcp 0.8.2 (5bc91408)',
};

export const amazonQ: ClientProfile = {
  name: 'amazon-q',
  client: 'Amazon Q Developer CLI (chat-cli) on rmcp TokioChildProcess',
  behaviours: [
    {
      name: 'amazon-q',
      versions: { label: '1.19.7', first: '1.19.7', last: '1.19.7', since: '15cc8f3c, v1.19.7 read (the last open-source release line), on rmcp 0.8.2' },
      client: 'Amazon Q Developer CLI 1.19.7 on rmcp 0.8.2 TokioChildProcess',
      spawn: { group: 'own-group', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'pipe' },
      stop: [closeStdin, wait(3000, 'child'), signal('SIGKILL', 'child', 'child')],
      closesStdinWhenChildExits: false,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(CLIENT, { repo: Q, where: 'Cargo.lock', what: 'rmcp 0.8.2, process-wrap 8.2.1', version: '15cc8f3c' }),
        env: cited({ repo: Q, where: 'crates/chat-cli/src/util/env_var.rs', what: 'get_all_env_vars: std::env::vars()', version: '15cc8f3c' }, CLIENT),
        stop: cited(
          {
            repo: Q,
            where: 'crates/chat-cli/src/cli/chat/tool_manager.rs',
            what: "ToolManager::swap_agent: each server's RunningService cancel()",
            version: '15cc8f3c',
          },
          RMCP,
        ),
        crash: cited({ ...CLIENT, what: 'no parent-death signal set on the Command' }),
        abandon: { unsourced: 'no path that drops a server unclosed was found in chat-cli' },
      },
    },
  ],
};
