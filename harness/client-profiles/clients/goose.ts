/**
 * Goose, now at aaif-goose/goose. configure_subprocess forces a group of the server's own and a
 * parent-death signal whatever the fence (GOOSE_PROCESS_FENCE); the signal is SIGKILL under the
 * strict fence or GOOSE_FENCE_PDEATHSIG=kill, and the standard and strict fences also make the
 * server a subreaper and set NO_NEW_PRIVS and Landlock (strict: namespaces too). Only the
 * default (no fence) is drilled here. Goose 1.50.0 pins rmcp 3.2.0, whose graceful_shutdown is
 * 3.1.4's: stdin, 3 s, kill (rmcp 3.11.0 adds a SIGTERM and a second 3 s).
 */
import type { ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const SUBPROCESS = { repo: 'aaif-goose/goose', where: 'crates/goose/src/subprocess.rs', version: '341f71a8' };
const RMCP = { repo: 'rmcp (crates.io)', where: 'src/transport/child_process.rs', version: '3.2.0' };

export const goose: ClientProfile = {
  name: 'goose',
  client: 'Goose (crates/goose extensions) on rmcp TokioChildProcess',
  behaviours: [
    {
      name: 'goose',
      versions: {
        label: 'newest-read',
        first: null,
        last: null,
        since: 'aaif-goose/goose subprocess.rs at 341f71a8; Goose 1.50.0 (Cargo.toml at 00ae46d8) pins rmcp 3.2.0',
      },
      client: 'Goose 1.50.0 without a process fence, on rmcp 3.2.0 TokioChildProcess',
      spawn: { group: 'own-group', env: { kind: 'whole', rules: [] }, parentDeathSignal: 'SIGTERM', stderr: 'pipe-read', stdio: 'pipe' },
      stop: [closeStdin, wait(3000, 'child'), signal('SIGKILL', 'child', 'child')],
      closesStdinWhenChildExits: false,
      crash: { signal: 'SIGTERM', to: 'child' },
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(
          {
            ...SUBPROCESS,
            what: 'configure_subprocess (isolate_process_group = true -> process_group(0)), spawn_long_lived_mcp_subprocess (TokioChildProcess, stderr piped)',
          },
          { ...RMCP, what: 'TokioChildProcessBuilder: stdin and stdout Stdio::piped()' },
        ),
        env: cited({
          ...SUBPROCESS,
          what: "the extension's child_process_client sets PATH and the working folder; the rest is inherited",
          version: 'block/goose, newest stored version',
        }),
        stop: cited(
          {
            ...RMCP,
            what: 'TokioChildProcess::graceful_shutdown: transport.close() (stdin), select! child.wait() against MAX_WAIT_ON_DROP_SECS = 3, then child.kill()',
          },
          { repo: 'aaif-goose/goose', where: 'Cargo.toml', what: 'workspace version 1.50.0; rmcp = 3.2.0', version: '00ae46d8' },
        ),
        crash: cited({
          ...SUBPROCESS,
          what: 'configure_linux_fencing: prctl(PR_SET_PDEATHSIG, SIGTERM, or SIGKILL when death_signal_kill: strict fence or GOOSE_FENCE_PDEATHSIG=kill) in pre_exec, then getppid check',
        }),
        abandon: cited({ ...RMCP, what: 'impl Drop for ChildWithCleanup: kill() on drop, so a dropped transport never leaves its server unsignalled' }),
      },
    },
  ],
};
