import { fdLinkedTo, listPids, readFdLinksAsync } from '../../observe/index.js';

/**
 * Finds a process holding `socket:[inode]` (readlink of /proc/PID/fd/N): the likely pids first,
 * synchronously, then this process, and only then every pid, asynchronously (it is expensive).
 */
export async function findSocketOwner(
  inode: number,
  candidates: readonly number[],
  opts: { self?: boolean } = {},
): Promise<{ pid: number; method: 'candidate' | 'self' | 'scan' } | undefined> {
  const candidate = candidateHolding(inode, candidates);
  return candidate !== undefined ? { pid: candidate, method: 'candidate' } : findOtherOwner(inode, candidates, opts);
}

/** The owner among the processes that are not `tried`: this process first (unless `self: false`), then every process. */
export async function findOtherOwner(
  inode: number,
  tried: readonly number[],
  opts: { self?: boolean } = {},
): Promise<{ pid: number; method: 'self' | 'scan' } | undefined> {
  const link = socketLink(inode);
  const skip = new Set(tried);
  // Asynchronously: the harness holds a descriptor per watched process (hundreds).
  if ((opts.self ?? true) && !skip.has(process.pid)) {
    skip.add(process.pid);
    if (await holds(process.pid, link)) return { pid: process.pid, method: 'self' };
  }
  // Highest (usually newest) pid first.
  const rest = listPids()
    .filter((pid) => !skip.has(pid))
    .sort((a, b) => b - a);
  const owners = await Promise.all(rest.map(async (pid) => ((await holds(pid, link)) ? pid : undefined)));
  const pid = owners.find((p) => p !== undefined);
  return pid === undefined ? undefined : { pid, method: 'scan' };
}

/** The first of `candidates` that holds the socket, read synchronously; undefined when none does. */
export function candidateHolding(inode: number, candidates: readonly number[]): number | undefined {
  const link = socketLink(inode);
  const tried = new Set<number>();
  for (const pid of candidates) {
    if (tried.has(pid)) continue;
    tried.add(pid);
    if (holdsSync(pid, link)) return pid;
  }
  return undefined;
}

function socketLink(inode: number): string {
  return `socket:[${inode}]`;
}

function holdsSync(pid: number, link: string): boolean {
  return fdLinkedTo(pid, link) !== undefined;
}

async function holds(pid: number, link: string): Promise<boolean> {
  return (await readFdLinksAsync(pid)).includes(link);
}
