import type { ClientBehaviour, ClientProfile } from '../types.js';
import { cited, closeStdin, signal, wait } from './steps.js';

const LAUNCHER = { repo: 'openai/codex', where: 'codex-rs/rmcp-client/src/stdio_server_launcher.rs' };
/** The newest stored version of the launcher; the index gives no commit for it. */
const NEWEST = 'stored version with PROCESS_RETIREMENT_TIMEOUT (3 s) and StdioServerProcessHandleInner; no commit given';

const close: ClientBehaviour = {
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
    // close() returns at the 3 s retirement bound without closing stdin (terminate()?): past
    // it the drop closes stdin; after the SIGKILL at 2 s only a member that outlives SIGKILL
    // (a zombie not yet reaped) keeps the group up that long, so the steps end with the close.
    stop: cited({
      ...LAUNCHER,
      what: 'StdioServerTransport::close: process.terminate()? (terminate_until now + PROCESS_RETIREMENT_TIMEOUT -> LocalProcessTerminator::terminate_and_observe: killpg SIGTERM, poll process_group_exists every 10 ms, killpg SIGKILL at 2 s), then close_after_terminal_observation closes stdin',
      version: NEWEST,
    }),
    crash: cited({ ...LAUNCHER, what: 'launch_stdio_server_locally: no parent-death signal set', version: '6e1452d0' }),
    abandon: { unsourced: 'a dropped handle terminates the server (ProcessGroupGuard); no path that leaves one unsignalled was read' },
  },
};

/**
 * Dropping a server's handle (StdioServerProcessHandleInner's Drop -> LocalProcessTerminator::terminate):
 * killpg SIGTERM, then a thread killpg SIGKILLs 2 s later without looking; stdin closes at once.
 */
const drop: ClientBehaviour = {
  ...close,
  versions: { label: 'drop', first: null, last: null, since: 'the same stored version: the path taken when the transport is dropped, not closed' },
  client: 'OpenAI Codex CLI, newest stored version, a server dropped rather than closed',
  stop: [signal('SIGTERM', 'group'), closeStdin, wait(2000, null, 0), signal('SIGKILL', 'group', null, 0)],
  sources: {
    ...close.sources,
    stop: cited({
      ...LAUNCHER,
      what: 'impl Drop for StdioServerProcessHandleInner (unless terminal_observed) -> LocalProcessTerminator::terminate: killpg SIGTERM; if the group existed, a thread: sleep(PROCESS_GROUP_TERM_GRACE_PERIOD = 2 s), kill_process_group',
      version: NEWEST,
    }),
  },
};

export const codex: ClientProfile = {
  name: 'codex',
  client: 'OpenAI Codex CLI (codex-rs/rmcp-client, local stdio launcher)',
  behaviours: [close, drop],
};
