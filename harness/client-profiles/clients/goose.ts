import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const SUBPROCESS = { repo: 'block/goose', where: 'crates/goose/src/subprocess.rs', version: 'newest stored version' };
const RMCP = { repo: 'modelcontextprotocol/rust-sdk', where: 'crates/rmcp/src/transport/child_process.rs', version: 'rmcp 3.1.4 (4a738b9d)' };

export const goose: ClientProfile = {
  name: 'goose',
  client: 'Goose (crates/goose extensions) on rmcp TokioChildProcess',
  behaviours: [
    {
      name: 'goose',
      versions: { label: 'newest-read', first: null, last: null, since: 'the newest stored version of crates/goose/src/subprocess.rs' },
      client: 'Goose (crates/goose extensions) on rmcp TokioChildProcess',
      spawn: { group: 'own-group', env: { kind: 'whole', rules: [] }, parentDeathSignal: 'SIGTERM', stderr: 'pipe-read', stdio: 'pipe' },
      stop: [closeStdin, wait(3000, 'child'), signal('SIGKILL', 'child', 'child')],
      closesStdinWhenChildExits: false,
      crash: { signal: 'SIGTERM', to: 'child' },
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(
          { ...SUBPROCESS, what: 'configure_subprocess (process_group(0)), spawn_long_lived_mcp_subprocess (TokioChildProcess, piped stdio)' },
          { ...RMCP, what: 'TokioChildProcess::builder: stdin and stdout Stdio::piped()' },
        ),
        env: cited({ ...SUBPROCESS, what: "the extension's child_process_client sets PATH and the working folder; the rest is inherited" }),
        stop: cited({ ...RMCP, what: 'TokioChildProcess::graceful_shutdown (MAX_WAIT_ON_DROP_SECS = 3), ChildWithCleanup Drop' }),
        crash: cited({ ...SUBPROCESS, what: 'configure_parent_death_signal: prctl(PR_SET_PDEATHSIG, SIGTERM) in pre_exec (Linux)' }),
        abandon: { unsourced: 'rmcp kills the child on drop (ChildWithCleanup); no path that leaves one unsignalled was read' },
      },
    },
  ],
};
