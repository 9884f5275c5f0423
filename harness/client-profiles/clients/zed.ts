import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal } from './steps.js';

const TRANSPORT = { repo: 'zed-industries/zed', where: 'crates/context_server/src/transport/stdio_transport.rs', version: 'newest stored version' };
const PROCESS = { repo: 'zed-industries/zed', where: 'crates/util/src/process.rs' };

export const zed: ClientProfile = {
  name: 'zed',
  client: 'Zed (crates/context_server stdio transport)',
  behaviours: [
    {
      name: 'zed',
      versions: {
        label: 'newest-read',
        first: null,
        last: null,
        since: '#54793 (setsid, killpg) and #55257 (the /proc descendant walk), newest stored version',
      },
      client: 'Zed (crates/context_server stdio transport, after #54793 and #55257)',
      spawn: { group: 'own-session', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'pipe' },
      stop: [signal('SIGKILL', 'tree'), signal('SIGKILL', 'group'), closeStdin],
      closesStdinWhenChildExits: false,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(
          { ...TRANSPORT, what: 'StdioTransport::new: Child::spawn through the system shell, stdin/stdout/stderr piped' },
          { repo: 'zed-industries/zed', where: '#54793', what: 'StdioTransport moves to util::process::Child: setsid in pre_exec', version: 'merged 2026-04' },
        ),
        env: cited({ ...TRANSPORT, what: 'StdioTransport::new: the configured env added to the inherited one' }),
        stop: cited(
          { ...TRANSPORT, what: 'impl Drop for StdioTransport: kill(); stdin ends with the handle_output task' },
          {
            ...PROCESS,
            what: 'Child::kill: kill_descendant_tree (/proc PPid walk, SIGKILL) then killpg SIGKILL (#55257)',
            version: 'newest stored version; 690d4e9b has the killpg only',
          },
        ),
        crash: cited({ ...PROCESS, what: 'Child::spawn: setsid in pre_exec, no parent-death signal', version: 'newest stored version' }),
        abandon: { cited: [{ ...TRANSPORT, what: 'impl Drop for StdioTransport kills: a dropped transport never leaves its server unsignalled' }] },
      },
    },
  ],
};
