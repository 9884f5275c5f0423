import type { ClientBehaviour, ClientProfile } from '../types.js';
import { cited, closeStdin, NODE_STDIN_ON_EXIT, NODE_STDIO_SOCKETPAIR, signal, wait } from './steps.js';

const HANDLER = { repo: 'microsoft/vscode', where: 'src/vs/workbench/contrib/mcp/node/mcpStdioStateHandler.ts' };
const EXT_HOST = { repo: 'microsoft/vscode', where: 'src/vs/workbench/api/node/extHostMcpNode.ts' };

const sigterm: ClientBehaviour = {
  name: 'vscode',
  versions: { label: '0baa8cd7', first: null, last: null, since: 'mcpStdioStateHandler.ts at 0baa8cd7' },
  client: 'Visual Studio Code, McpStdioStateHandler at 0baa8cd7',
  spawn: { group: 'same', env: { kind: 'whole', rules: [] }, parentDeathSignal: null, stderr: 'pipe-read', stdio: 'socketpair' },
  stop: [closeStdin, wait(10_000, 'child'), signal('SIGTERM', 'child', 'child'), wait(10_000, 'child'), signal('SIGKILL', 'tree', 'child')],
  closesStdinWhenChildExits: true,
  crash: 'eof',
  abandons: null,
  observed: false,
  sources: {
    spawn: cited(
      { ...EXT_HOST, what: "NodeExtHostMpcService.startNodeMpc: spawn(executable, args, { stdio: 'pipe', cwd, env, shell })", version: '0334cc07' },
      NODE_STDIO_SOCKETPAIR,
    ),
    env: cited({ ...EXT_HOST, what: 'startNodeMpc: env = { ...process.env } + envFile + config', version: '0334cc07' }),
    stop: cited(
      { ...HANDLER, what: 'McpStdioStateHandler.stop, killPolite, killForceful, dispose', version: '0baa8cd7' },
      { ...EXT_HOST, what: '$stopMcp; the exit handler disposes the timers', version: '0334cc07' },
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/base/node/processes.ts',
        what: 'killTree -> terminateProcess.sh (pgrep -P walk, kill -9)',
        version: '01272b92',
      },
      NODE_STDIN_ON_EXIT,
    ),
    crash: cited({ ...EXT_HOST, what: 'startNodeMpc: no detached, no parent-death signal', version: '0334cc07' }),
    abandon: { unsourced: 'no path that drops a server without stop() was read' },
  },
};

/**
 * The other McpStdioStateHandler: killPolite calls killTree(pid, false) off Windows, which runs
 * terminateProcess.sh with the pid and '15'; the script takes every argument as a pid and kill -9s
 * each one's tree, so the polite step at 10 s is a SIGKILL to the tree. Which of the two ships is
 * not settled: the bare `vscode` stays the one read at 0baa8cd7.
 */
const treeKill: ClientBehaviour = {
  ...sigterm,
  versions: {
    label: 'ce34ccc3',
    first: null,
    last: null,
    since: 'McpStdioStateHandler with killPolite -> killTree(pid, false) (ce34ccc3, as the issue names it)',
  },
  client: 'Visual Studio Code, McpStdioStateHandler whose killPolite calls killTree(pid, false)',
  stop: [closeStdin, wait(10_000, 'child'), signal('SIGKILL', 'tree', 'child'), wait(10_000, 'child'), signal('SIGKILL', 'tree', 'child')],
  sources: {
    ...sigterm.sources,
    stop: cited(
      {
        ...HANDLER,
        what: 'killPolite: if (!isWindows) await killTree(this._child.pid, false) (seen in the index without its commit; the issue names ce34ccc3)',
        version: 'ce34ccc3',
      },
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/base/node/processes.ts',
        what: "killTree(pid, false) -> /bin/sh terminateProcess.sh <pid> '15'",
        version: '01272b92',
      },
      {
        repo: 'microsoft/vscode',
        where: 'src/vs/base/node/terminateProcess.sh',
        what: 'terminateTree: pgrep -P recursion, kill -9 every argument (the 15 too)',
        version: '8f35cc47',
      },
      { ...EXT_HOST, what: '$stopMcp; the exit handler disposes the timers', version: '0334cc07' },
      NODE_STDIN_ON_EXIT,
    ),
  },
};

export const vscode: ClientProfile = {
  name: 'vscode',
  client: 'Visual Studio Code (extension host, MCP stdio)',
  behaviours: [sigterm, treeKill],
};
