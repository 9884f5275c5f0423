/**
 * How real MCP clients start, stop and lose their stdio servers: one entry per client, facts
 * only, each with the source it was read from (docs/client-profiles.md gives the reading).
 * A leaf module: it imports nothing, so any part of the harness (or a bench) can read it, and
 * one piece of code executes any entry: the steps are data, not a branch per client.
 */

export const PROFILE_NAMES = [
  'ts-sdk',
  'python-sdk',
  'codex',
  'gemini-cli',
  'vscode',
  'zed',
  'goose',
  'claude-code',
  // Read for the clients users run (docs/client-profiles.md, "More clients").
  'cline',
  'cline-cli',
  'roo-code',
  'continue',
  'opencode',
  'amazon-q',
  'claude-code-reconnect',
  'claude-desktop',
  'cursor',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Today's behaviour of the drill client: the official TypeScript SDK's StdioClientTransport. */
export const DEFAULT_PROFILE: ProfileName = 'ts-sdk';

export type SignalName = 'SIGINT' | 'SIGTERM' | 'SIGKILL';

/**
 * Whom a signal reaches. `child`: the process the client spawned. `group`: killpg of the process
 * group the client put it in (its own group or session; a `same`-group client never does this).
 * `tree`: the child and every process whose parent-pid chain leads to it at that moment (VS
 * Code's terminateProcess.sh, Zed's /proc walk), so a process already re-parented is missed.
 * `descendants`: the tree without the child itself, parents before children (OpenCode's
 * `pgrep -P` walk, which leaves the child to the SDK's close that follows).
 */
export type Reach = 'child' | 'group' | 'tree' | 'descendants';

/** What a conditional step asks about: the direct child alive, or any member of its group. */
export type Liveness = 'child' | 'group';

export type StopStep =
  /** The client ends its write side of the server's stdin: the server reads EOF. */
  | { kind: 'close-stdin'; onlyIfAlive: Liveness | null }
  /**
   * Waits up to `ms`, ending early once `endsWhenGone` is gone (null: the whole time); with
   * `onlyIfSent`, only when the signal step at that index was sent.
   */
  | { kind: 'wait-ms'; ms: number; endsWhenGone: Liveness | null; onlyIfSent?: number }
  /**
   * Sends `name` to `to`; with `onlyIfAlive`, only while that is still alive; with `onlyIfSent`,
   * only when the signal step at that index was sent (an escalation that a client starts only
   * once, as the Python SDK's terminate_posix_process_tree, which runs only if the child outlived
   * the first wait).
   */
  | { kind: 'signal'; name: SignalName; to: Reach; onlyIfAlive: Liveness | null; onlyIfSent?: number }
  /**
   * The client drops the server and keeps its ends of the pipes: no EOF, no signal, the server
   * lives on until the client process exits (Claude Desktop's replaced server, claude-code #88514).
   */
  | { kind: 'abandon' };

export type SpawnEnv =
  /** Only these names from the client's environment, plus what the server's configuration sets. */
  | { kind: 'allowlist'; names: readonly string[] }
  /** The client's whole environment (less names matching these patterns, where it redacts). */
  | { kind: 'whole'; withoutNamesMatching: readonly string[] };

export interface SpawnFacts {
  /** `same`: the client's own process group; `own-group`: setpgid(0, 0); `own-session`: setsid. */
  group: 'same' | 'own-group' | 'own-session';
  env: SpawnEnv;
  /** Linux PR_SET_PDEATHSIG set in the child before exec, or null. */
  parentDeathSignal: SignalName | null;
  /**
   * The server's stderr: the client's own (`inherit`), a pipe the client reads into its logs
   * (`pipe-read`), or a pipe nobody reads unless debugging (`pipe-unread`, full at 64 KiB).
   * Once the client dies a piped stderr has no reader: the server's next write fails (EPIPE),
   * which kills a Node server without an 'error' handler before it ends its children.
   */
  stderr: 'inherit' | 'pipe-read' | 'pipe-unread';
}

/** What reaches the server when the client process dies (its pipes close: EOF, always). */
export type CrashFacts = 'eof' | { signal: SignalName; to: 'child' };

export interface Citation {
  /** owner/name, or a package registry name for a published version. */
  repo: string;
  /** A file in that repository, or an issue / pull request ('#16744'). */
  where: string;
  /** The function, type or constant read; for a tracker entry what it reports. */
  what: string;
  /** The commit, tag or published version read; for a tracker entry, its state when read. */
  version: string;
}

export interface ClientProfile {
  name: ProfileName;
  /** The client and the version range this entry describes. */
  client: string;
  spawn: SpawnFacts;
  /** The steps to stop one server while the client lives on (disable, reload, reconnect). */
  stop: readonly StopStep[];
  /**
   * Whether the client's runtime closes its end of the server's stdin as soon as the direct
   * child exits, whatever the stop steps say: Node's ChildProcess destroys `stdin` in its exit
   * handler (nodejs/node lib/internal/child_process.js), and Bun's node:child_process does the
   * same. This is what hands EOF to a real server left behind a launcher that died.
   */
  closesStdinWhenChildExits: boolean;
  crash: CrashFacts;
  /** True when nothing of the client's code could be read: the entry comes from its tracker. */
  observed: boolean;
  source: readonly Citation[];
}

const SDK_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

const closeStdin: StopStep = { kind: 'close-stdin', onlyIfAlive: null };
const wait = (ms: number, endsWhenGone: Liveness | null, onlyIfSent?: number): StopStep => ({
  kind: 'wait-ms',
  ms,
  endsWhenGone,
  ...(onlyIfSent === undefined ? {} : { onlyIfSent }),
});
const signal = (name: SignalName, to: Reach, onlyIfAlive: Liveness | null = null, onlyIfSent?: number): StopStep => ({
  kind: 'signal',
  name,
  to,
  onlyIfAlive,
  ...(onlyIfSent === undefined ? {} : { onlyIfSent }),
});

export const CLIENT_PROFILES: Readonly<Record<ProfileName, ClientProfile>> = {
  'ts-sdk': {
    name: 'ts-sdk',
    client: '@modelcontextprotocol/sdk StdioClientTransport >= 1.24.0 (Claude Desktop, Cline, Continue, LibreChat)',
    spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'inherit' },
    stop: [closeStdin, wait(2000, 'child'), signal('SIGTERM', 'child', 'child'), wait(2000, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: '@modelcontextprotocol/sdk',
        where: 'dist/esm/client/stdio.js',
        what: 'StdioClientTransport.start, close; DEFAULT_INHERITED_ENV_VARS',
        version: '1.32.2',
      },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: 'close(): the 2 s + 2 s ladder, added by #1200 (fix hanging stdio servers)',
        version: '1.24.0 (356b7e61)',
      },
      { repo: 'nodejs/node', where: 'lib/internal/child_process.js', what: 'ChildProcess _handle.onexit destroys stdin', version: '871d8204' },
    ],
  },
  'python-sdk': {
    name: 'python-sdk',
    client: 'mcp (PyPI) stdio_client 2.x',
    spawn: { group: 'own-session', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'inherit' },
    // _stop_server_process: the whole of terminate_posix_process_tree (SIGTERM, the group poll,
    // SIGKILL) runs only when the child outlived the first wait, so the last two steps hang on the
    // SIGTERM (step 2) having been sent: a child that exited on EOF leaves its group alone.
    stop: [closeStdin, wait(2000, 'child'), signal('SIGTERM', 'group', 'child'), wait(2000, 'group', 2), signal('SIGKILL', 'group', 'group', 2)],
    closesStdinWhenChildExits: false,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'mcp',
        where: 'mcp/client/stdio.py',
        what: '_create_platform_compatible_process (start_new_session=True), _stop_server_process, get_default_environment',
        version: '2.3.0',
      },
      {
        repo: 'mcp',
        where: 'mcp/os/posix/utilities.py',
        what: 'terminate_posix_process_tree: killpg SIGTERM, poll the group, killpg SIGKILL',
        version: '2.3.0',
      },
      { repo: 'modelcontextprotocol/python-sdk', where: 'src/mcp/client/stdio.py', what: 'the same functions on main', version: '57394b05' },
    ],
  },
  codex: {
    name: 'codex',
    client: 'OpenAI Codex CLI (codex-rs/rmcp-client, local stdio launcher)',
    spawn: {
      group: 'own-group',
      env: { kind: 'allowlist', names: ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', '__CF_USER_TEXT_ENCODING', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'] },
      parentDeathSignal: null,
      stderr: 'pipe-read',
    },
    stop: [signal('SIGTERM', 'group'), wait(2000, 'group'), signal('SIGKILL', 'group', 'group'), closeStdin],
    closesStdinWhenChildExits: false,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'openai/codex',
        where: 'codex-rs/rmcp-client/src/stdio_server_launcher.rs',
        what: 'launch_stdio_server_locally (process_group(0), env_clear), ProcessGroupGuard',
        version: '6e1452d0',
      },
      {
        repo: 'openai/codex',
        where: 'codex-rs/rmcp-client/src/stdio_server_launcher.rs',
        what: 'LocalProcessTerminator::terminate_and_observe, StdioServerTransport::close (terminate first, then close stdin)',
        version: 'newest stored version',
      },
      { repo: 'openai/codex', where: 'codex-rs/rmcp-client/src/utils.rs', what: 'create_env_for_mcp_server, DEFAULT_ENV_VARS', version: '45e887e7' },
    ],
  },
  'gemini-cli': {
    name: 'gemini-cli',
    client: 'Gemini CLI (packages/core/src/tools/mcp-client.ts) on @modelcontextprotocol/sdk 1.23.0',
    spawn: {
      group: 'same',
      env: { kind: 'whole', withoutNamesMatching: ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'KEY', 'AUTH', 'CREDENTIAL', 'CREDS', 'PRIVATE'] },
      parentDeathSignal: null,
      stderr: 'pipe-unread',
    },
    stop: [signal('SIGTERM', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'google-gemini/gemini-cli',
        where: 'packages/core/src/tools/mcp-client.ts',
        what: 'McpClient.disconnect, createTransport (StdioClientTransport, sanitizeEnvironment)',
        version: '5411f113',
      },
      { repo: 'google-gemini/gemini-cli', where: 'packages/core/package.json', what: 'pins @modelcontextprotocol/sdk 1.23.0', version: '5411f113' },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: 'close(): abort the spawn signal, so Node sends SIGTERM to the child',
        version: '1.23.0 (e6c71bba)',
      },
      {
        repo: 'google-gemini/gemini-cli',
        where: 'packages/core/src/services/environmentSanitization.ts',
        what: 'NEVER_ALLOWED_NAME_PATTERNS',
        version: '5411f113',
      },
    ],
  },
  vscode: {
    name: 'vscode',
    client: 'Visual Studio Code (extension host, MCP stdio)',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [closeStdin, wait(10_000, 'child'), signal('SIGTERM', 'child', 'child'), wait(10_000, 'child'), signal('SIGKILL', 'tree', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/workbench/contrib/mcp/node/mcpStdioStateHandler.ts',
        what: 'McpStdioStateHandler.stop, killPolite, killForceful, dispose',
        version: '0baa8cd7',
      },
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/workbench/api/node/extHostMcpNode.ts',
        what: 'startNodeMpc (spawn, env = process.env + config), $stopMcp, exit handler disposes the timers',
        version: '0334cc07',
      },
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/base/node/processes.ts',
        what: 'killTree -> terminateProcess.sh (pgrep -P walk, kill -9)',
        version: '01272b92',
      },
    ],
  },
  zed: {
    name: 'zed',
    client: 'Zed (crates/context_server stdio transport, after #54793)',
    spawn: { group: 'own-session', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [signal('SIGKILL', 'tree'), signal('SIGKILL', 'group'), closeStdin],
    closesStdinWhenChildExits: false,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'zed-industries/zed',
        where: '#54793',
        what: 'StdioTransport moves to util::process::Child: setsid in pre_exec, killpg SIGKILL on drop',
        version: 'merged 2026-04',
      },
      {
        repo: 'zed-industries/zed',
        where: 'crates/context_server/src/transport/stdio_transport.rs',
        what: 'StdioTransport::new (Child::spawn through the system shell), Drop (kill)',
        version: 'newest stored version',
      },
      {
        repo: 'zed-industries/zed',
        where: 'crates/util/src/process.rs',
        what: 'Child::kill: kill_descendant_tree (/proc PPid walk, SIGKILL) then killpg SIGKILL (#55257)',
        version: 'newest stored version; 690d4e9b has the killpg only',
      },
    ],
  },
  goose: {
    name: 'goose',
    client: 'Goose (crates/goose extensions) on rmcp TokioChildProcess',
    spawn: { group: 'own-group', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: 'SIGTERM', stderr: 'pipe-read' },
    stop: [closeStdin, wait(3000, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: false,
    crash: { signal: 'SIGTERM', to: 'child' },
    observed: false,
    source: [
      {
        repo: 'block/goose',
        where: 'crates/goose/src/subprocess.rs',
        what: 'configure_subprocess (process_group(0), Linux PR_SET_PDEATHSIG SIGTERM), spawn_long_lived_mcp_subprocess',
        version: 'newest stored version',
      },
      {
        repo: 'modelcontextprotocol/rust-sdk',
        where: 'crates/rmcp/src/transport/child_process.rs',
        what: 'TokioChildProcess::graceful_shutdown (MAX_WAIT_ON_DROP_SECS = 3), ChildWithCleanup Drop',
        version: 'rmcp 3.1.4 (4a738b9d)',
      },
    ],
  },
  'claude-code': {
    name: 'claude-code',
    client: 'Claude Code (closed source; Bun runtime): observed in its tracker',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    // The tracker gives the order and the target, not the waits: 500 ms each is our choice.
    stop: [signal('SIGINT', 'child'), wait(500, 'child'), signal('SIGTERM', 'child', 'child'), wait(500, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: true,
    source: [
      { repo: 'anthropics/claude-code', where: '#16744', what: 'SIGKILL to the server on /exit with no stdin close and no SIGTERM first', version: 'closed' },
      {
        repo: 'anthropics/claude-code',
        where: '#40207',
        what: 'strace: kill(pid, SIGINT) from the main process, kill(pid, SIGTERM) from a wrapper, to the direct child',
        version: 'closed',
      },
      { repo: 'anthropics/claude-code', where: '#79740', what: 'a /mcp reconnect abandons the old server with neither EOF nor a signal', version: 'as filed' },
      { repo: 'anthropics/claude-code', where: '#93087', what: 'servers still connecting are never stopped', version: 'as filed' },
      {
        repo: 'anthropics/claude-code',
        where: '#30147',
        what: "its debug log carries the server's stderr ('Server stderr: ...'): stderr is piped and read",
        version: 'closed',
      },
    ],
  },
  // The clients users run, read since the first eight (docs/client-profiles.md, "More clients"): one entry each.
  cline: {
    name: 'cline',
    client: 'Cline VS Code extension 4.1.13 (McpHub) on @modelcontextprotocol/sdk 1.30.0',
    spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'pipe-read' },
    // transport.close() runs the SDK's ladder; the client.close() after it finds no process left.
    stop: [closeStdin, wait(2000, 'child'), signal('SIGTERM', 'child', 'child'), wait(2000, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'cline/cline',
        where: 'apps/vscode/src/services/mcp/McpHub.ts',
        what: "connectToServer: StdioClientTransport({ env: getDefaultEnvironment() + config, stderr: 'pipe' }), stderr read into the log; deleteConnection: transport.close(), then client.close()",
        version: '21cb8d25 (extension 4.1.13)',
      },
      { repo: 'cline/cline', where: 'bun.lock', what: '@modelcontextprotocol/sdk resolves 1.30.0', version: '21cb8d25' },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: 'StdioClientTransport.close(): stdin end, 2 s, SIGTERM, 2 s, SIGKILL, the direct child only',
        version: '1.30.0 (2d889f2b)',
      },
    ],
  },
  'cline-cli': {
    name: 'cline-cli',
    client: 'Cline CLI 3.0.56 (Bun) on @cline/core 0.0.78 StdioMcpClient (no SDK transport)',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [signal('SIGTERM', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'cline/cline',
        where: 'sdk/packages/core/src/extensions/mcp/client.ts',
        what: 'StdioMcpClient.spawnProcess: spawn(command, args, { env: process.env + config, stdio: pipe x3 }), stderr buffered; disconnect: child.kill() (SIGTERM), no stdin close, no wait',
        version: '21cb8d25 (@cline/core 0.0.78)',
      },
      { repo: 'cline/cline', where: 'apps/cli/src/index.ts', what: 'runs under Bun (#!/usr/bin/env bun); @cline/cli 3.0.56', version: '21cb8d25' },
    ],
  },
  'roo-code': {
    name: 'roo-code',
    client: 'Roo Code 3.52.1 (McpHub) on @modelcontextprotocol/sdk 1.12.0',
    spawn: { group: 'same', env: { kind: 'allowlist', names: SDK_ENV }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [signal('SIGTERM', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'RooCodeInc/Roo-Code',
        where: 'src/services/mcp/McpHub.ts',
        what: "connectToServer: StdioClientTransport({ env: getDefaultEnvironment() + config, stderr: 'pipe' }); deleteConnection: transport.close(), then client.close()",
        version: 'cb836567 (3.52.1)',
      },
      { repo: 'RooCodeInc/Roo-Code', where: 'pnpm-lock.yaml', what: '@modelcontextprotocol/sdk 1.12.0 (src/package.json pins it)', version: 'cb836567' },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: "close(): abort the spawn's signal, so Node sends SIGTERM to the child; nothing else",
        version: '1.12.0 (0c4b3082)',
      },
    ],
  },
  continue: {
    name: 'continue',
    client: 'Continue VS Code extension 1.3.40 (core MCPConnection) on @modelcontextprotocol/sdk 1.29.0',
    spawn: {
      group: 'same',
      // Continue's own names (COMMONS_ENV_VARS and PATH) merged by the SDK over its default six.
      env: { kind: 'allowlist', names: [...SDK_ENV, 'USERPROFILE', 'USERNAME'] },
      parentDeathSignal: null,
      stderr: 'pipe-read',
    },
    stop: [closeStdin, wait(2000, 'child'), signal('SIGTERM', 'child', 'child'), wait(2000, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'continuedev/continue',
        where: 'core/context/mcp/MCPConnection.ts',
        what: "constructStdioTransport (COMMONS_ENV_VARS + config, PATH from the user's shell; stderr 'pipe', read), disconnect: client.close(), then transport.close()",
        version: 'd0a3c0b6 (extension 1.3.40)',
      },
      { repo: 'continuedev/continue', where: 'core/package-lock.json', what: '@modelcontextprotocol/sdk resolves 1.29.0', version: 'd0a3c0b6' },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: 'start(): env = getDefaultEnvironment() + the given env; close(): the 2 s + 2 s ladder',
        version: 'v1.29.0 (e12cbd70)',
      },
    ],
  },
  opencode: {
    name: 'opencode',
    client: 'OpenCode (Bun) on @modelcontextprotocol/sdk 1.29.0: an instance disposed (its MCP state finalizer)',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    // The finalizer SIGTERMs what `pgrep -P` finds below the child, then client.close(): the SDK's ladder.
    stop: [
      signal('SIGTERM', 'descendants'),
      closeStdin,
      wait(2000, 'child'),
      signal('SIGTERM', 'child', 'child'),
      wait(2000, 'child'),
      signal('SIGKILL', 'child', 'child'),
    ],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'anomalyco/opencode',
        where: 'packages/opencode/src/mcp/mcp.ts',
        what: "connectLocal: StdioClientTransport({ env: process.env + config, stderr: 'pipe' }), stderr logged; the state finalizer: descendants (pgrep -P walk), SIGTERM each, then client.close(); disconnect: client.close() alone",
        version: '3e1504e5',
      },
      {
        repo: 'anomalyco/opencode',
        where: 'packages/opencode/package.json',
        what: 'opencode 1.18.34 pins @modelcontextprotocol/sdk 1.29.0',
        version: '006d1ab3',
      },
      {
        repo: 'modelcontextprotocol/typescript-sdk',
        where: 'src/client/stdio.ts',
        what: 'close(): the 2 s + 2 s ladder, the direct child only',
        version: 'v1.29.0 (e12cbd70)',
      },
    ],
  },
  'amazon-q': {
    name: 'amazon-q',
    client: 'Amazon Q Developer CLI 1.19.7 (chat-cli) on rmcp 0.8.2 TokioChildProcess',
    spawn: { group: 'own-group', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [closeStdin, wait(3000, 'child'), signal('SIGKILL', 'child', 'child')],
    closesStdinWhenChildExits: false,
    crash: 'eof',
    observed: false,
    source: [
      {
        repo: 'aws/amazon-q-developer-cli',
        where: 'crates/chat-cli/src/mcp_client/client.rs',
        what: 'McpClientService::into_service: Command (config env, then every variable of the client), process_group(0), TokioChildProcess::builder(..).stderr(piped), stderr read into the log',
        version: '15cc8f3c (v1.19.7)',
      },
      {
        repo: 'aws/amazon-q-developer-cli',
        where: 'crates/chat-cli/src/cli/chat/tool_manager.rs',
        what: "ToolManager::swap_agent: each server's RunningService cancel()",
        version: '15cc8f3c',
      },
      { repo: 'aws/amazon-q-developer-cli', where: 'Cargo.lock', what: 'rmcp 0.8.2, process-wrap 8.2.1', version: '15cc8f3c' },
      {
        repo: 'modelcontextprotocol/rust-sdk',
        where: 'crates/rmcp/src/transport/child_process.rs',
        what: 'TokioChildProcess::graceful_shutdown: close the stdin writer, wait up to MAX_WAIT_ON_DROP_SECS (3), kill the child (no group wrapper)',
        version: 'rmcp 0.8.2 (5bc91408)',
      },
    ],
  },
  'claude-code-reconnect': {
    name: 'claude-code-reconnect',
    client: 'Claude Code 2.1.233, /mcp reconnect with an unchanged entry (closed source): observed in its tracker',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    // The tracker says it waits for the exit, not how long: 5000 ms is our bound. Nothing follows.
    stop: [closeStdin, wait(5000, 'child')],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: true,
    source: [
      {
        repo: 'anthropics/claude-code',
        where: '#79740',
        what: "/mcp reconnect, entry unchanged: stdin closed, the old server's exit awaited, then the new one spawned; entry edited: the old one abandoned (the abandon mode)",
        version: 'open; reproduced on 2.1.233',
      },
      {
        repo: 'anthropics/claude-code',
        where: '#30147',
        what: "its debug log carries the server's stderr ('Server stderr: ...'): stderr is piped and read",
        version: 'closed',
      },
    ],
  },
  'claude-desktop': {
    name: 'claude-desktop',
    client: 'Claude Desktop 1.34493.1.0 (closed source): observed in its tracker; its spawn is unsourced',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [{ kind: 'abandon' }],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: true,
    source: [
      {
        repo: 'anthropics/claude-code',
        where: '#88514',
        what: 'a renderer releasing its port: Desktop starts a replacement, the replaced server never reads EOF and runs while the app is open (Windows 11)',
        version: 'open, labelled invalid',
      },
      {
        repo: 'posit-dev/mcptools',
        where: '#19',
        what: 'macOS: Claude Desktop sends the server no signal when it exits; the server stays unless it acts on its stdin',
        version: 'closed',
      },
    ],
  },
  cursor: {
    name: 'cursor',
    client: 'Cursor (closed source): observed in third-party trackers; its spawn is unsourced',
    spawn: { group: 'same', env: { kind: 'whole', withoutNamesMatching: [] }, parentDeathSignal: null, stderr: 'pipe-read' },
    stop: [closeStdin],
    closesStdinWhenChildExits: true,
    crash: 'eof',
    observed: true,
    source: [
      {
        repo: 'larksuite/lark-openapi-mcp',
        where: '#61',
        what: 'when Cursor closes an MCP server it closes stdin and stdout and sends no SIGINT or SIGTERM',
        version: 'open',
      },
      {
        repo: 'microsoft/azure-devops-mcp',
        where: '#1598',
        what: 'Cursor 3.20.10 (Windows): every window reload or config change leaves the previous server (npx + node) running when it does not exit on EOF',
        version: 'open',
      },
    ],
  },
};

/**
 * A stop sequence with every wait replaced by `ms` (a scenario's `timeouts.close-wait`), or as
 * read when `ms` is null. The steps and their order stay the client's.
 */
export function withWaits(steps: readonly StopStep[], ms: number | null): StopStep[] {
  return steps.map((step) => (step.kind === 'wait-ms' && ms !== null ? { ...step, ms } : step));
}

/** The longest a stop sequence can take: the sum of its waits. */
export function longestStop(steps: readonly StopStep[]): number {
  return steps.reduce((sum, step) => sum + (step.kind === 'wait-ms' ? step.ms : 0), 0);
}

/**
 * How a drill key names the profile its drill ran under: nothing for the default profile (the
 * keys of every run before profiles stay as they were), `@<profile>` after the mode otherwise.
 */
export function profileKeySuffix(profile: ProfileName): string {
  return profile === DEFAULT_PROFILE ? '' : `@${profile}`;
}
