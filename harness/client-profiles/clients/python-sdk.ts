import type { ClientProfile } from '../types.js';
import { cited, closeStdin, SDK_ENV, signal, wait } from './steps.js';

const STDIO = { repo: 'mcp', where: 'mcp/client/stdio.py', version: '2.3.0' };

export const pythonSdk: ClientProfile = {
  name: 'python-sdk',
  client: 'mcp (PyPI) stdio_client',
  behaviours: [
    {
      name: 'python-sdk',
      versions: { label: '2.3', first: '2.3', last: '2.3', since: 'mcp 2.3.0 (PyPI), the version read; main at 57394b05 the same' },
      client: 'mcp (PyPI) stdio_client 2.3.0',
      spawn: { group: 'own-session', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'inherit', stdio: 'pipe' },
      // _stop_server_process: the whole of terminate_posix_process_tree (SIGTERM, the group poll,
      // SIGKILL) runs only when the child outlived the first wait, so the last two steps hang on the
      // SIGTERM (step 2) having been sent: a child that exited on EOF leaves its group alone.
      stop: [closeStdin, wait(2000, 'child'), signal('SIGTERM', 'group', 'child'), wait(2000, 'group', 2), signal('SIGKILL', 'group', 'group', 2)],
      closesStdinWhenChildExits: false,
      crash: 'eof',
      abandons: null,
      observed: false,
      sources: {
        spawn: cited(
          { ...STDIO, what: '_create_platform_compatible_process: anyio.open_process(start_new_session=True), stdin/stdout PIPE' },
          {
            repo: 'python/cpython',
            where: 'Lib/asyncio/unix_events.py',
            what: '_UnixSubprocessTransport._start: Popen with PIPE (a socketpair only on AIX)',
            version: '3.11.7 (installed)',
          },
          { repo: 'python/cpython', where: 'Lib/subprocess.py', what: 'Popen._get_handles: PIPE -> os.pipe()', version: '3.11.7 (installed)' },
        ),
        env: cited({ ...STDIO, what: 'get_default_environment (DEFAULT_INHERITED_ENV_VARS)' }),
        stop: cited(
          { ...STDIO, what: 'stdio_client shutdown -> _stop_server_process' },
          {
            repo: 'mcp',
            where: 'mcp/os/posix/utilities.py',
            what: 'terminate_posix_process_tree: killpg SIGTERM, poll the group, killpg SIGKILL',
            version: '2.3.0',
          },
          { repo: 'modelcontextprotocol/python-sdk', where: 'src/mcp/client/stdio.py', what: 'the same functions on main', version: '57394b05' },
        ),
        crash: cited({ ...STDIO, what: '_create_platform_compatible_process: no parent-death signal on POSIX' }),
        abandon: {
          unsourced:
            'stdio_client is an async context manager whose exit always stops the server; a host that never leaves it would abandon one, and none was read',
        },
      },
    },
  ],
};
