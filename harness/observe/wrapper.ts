/**
 * Finding the real server below a launcher (`npx pkg`, `sh -c`): the SDK's StdioClientTransport
 * signals only its direct child (typescript-sdk #2023), so exit-on-eof judges the first
 * non-launcher that holds the client's pipes.
 */
import type { ProcIdentity } from './identity.js';
import { listPids, readCmdline, readFdLink, readStat } from './proc.js';

export type ChainProcess = { pid: number; startTime: number; ppid: number; cmdline: string[] };

export type ReadFd = (pid: number, fd: number) => string | null;

/** Programs that only start another program and pass their stdio down. */
const LAUNCHER_NAMES = new Set(['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'sh', 'bash', 'dash', 'zsh', 'env', 'uv', 'uvx']);

/** npm and npx run as `node .../bin/npm-cli.js` (or `npx-cli.js`) before they set a title. */
const NODE_LAUNCHER_SCRIPT = /(^|\/)(npm|npx)-cli\.js$/;

function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** True for a known launcher; npm rewrites its process title into one string, so argv[0]'s first word names it. */
export function isLauncher(cmdline: readonly string[]): boolean {
  const first = cmdline[0];
  if (first === undefined || first === '') return false;
  const program = baseName(first.trim().split(/\s+/)[0] ?? '');
  if (LAUNCHER_NAMES.has(program)) return true;
  if (program === 'node' || program === 'nodejs') {
    const script = cmdline[1];
    return script !== undefined && NODE_LAUNCHER_SCRIPT.test(script);
  }
  return false;
}

/**
 * The real server among the direct child and its descendants: of those sharing the child's fd 0
 * and 1, the first non-launcher on the way down (deeper ones inherited its stdio); else the
 * deepest candidate; the direct child itself when its fds cannot be read.
 */
export function findRealServer(chain: readonly ChainProcess[], directChild: ProcIdentity, readFd: ReadFd): ProcIdentity {
  const direct = { pid: directChild.pid, startTime: directChild.startTime };
  const in0 = readFd(direct.pid, 0);
  const out1 = readFd(direct.pid, 1);
  if (in0 === null || out1 === null) return direct;

  const children = new Map<number, ChainProcess[]>();
  for (const p of chain) {
    const list = children.get(p.ppid);
    if (list === undefined) children.set(p.ppid, [p]);
    else list.push(p);
  }
  const self = chain.find((p) => p.pid === direct.pid && p.startTime === direct.startTime);
  if (self !== undefined && !isLauncher(self.cmdline)) return direct;

  let deepest: { id: ProcIdentity; depth: number } = { id: direct, depth: 0 };
  // Breadth-first through launchers only: a non-launcher stops the walk on its branch.
  let level: ChainProcess[] = children.get(direct.pid) ?? [];
  const seen = new Set<number>([direct.pid]);
  for (let depth = 1; level.length > 0; depth++) {
    const next: ChainProcess[] = [];
    for (const p of level) {
      if (seen.has(p.pid)) continue;
      seen.add(p.pid);
      // A child starts after its parent: a younger "parent" means the parent pid was reused.
      if (p.startTime < direct.startTime) continue;
      if (readFd(p.pid, 0) !== in0 || readFd(p.pid, 1) !== out1) continue;
      const id = { pid: p.pid, startTime: p.startTime };
      if (!isLauncher(p.cmdline)) return id;
      if (depth > deepest.depth) deepest = { id, depth };
      next.push(...(children.get(p.pid) ?? []));
    }
    level = next;
  }
  return deepest.id;
}

/** Every live process of the machine as a chain entry (a snapshot; racy by nature). */
export function snapshotChain(): ChainProcess[] {
  const chain: ChainProcess[] = [];
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat === null || stat.state === 'Z') continue;
    const cmdline = readCmdline(pid);
    if (cmdline === null) continue;
    chain.push({ pid, startTime: stat.startTime, ppid: stat.ppid, cmdline });
  }
  return chain;
}

export function findRealServerNow(directChild: ProcIdentity): ProcIdentity {
  return findRealServer(snapshotChain(), directChild, readFdLink);
}
