import { fdLinkedTo, listPids, readFdLinksAsync } from '../../observe/index.js';

/**
 * Finds a process holding `socket:[inode]` among its open files (readlink of
 * /proc/PID/fd/N gives that text for sockets, proc(5)). Reading every fd of every process is
 * the expensive part, so the likely pids come first, checked synchronously (candidateHolding,
 * about 0.06 ms for one pid here: the attributor calls it in the turn that accepted the
 * connection, while the sender surely holds its socket); then this process itself,
 * asynchronously (`self`: the harness's own requests, the revocation probe of every drill
 * among them, which a scan found last, at about 17 ms of CPU a drill here); only if none holds
 * it are all pids scanned, asynchronously so a scan (about 6 ms for 80 processes and 500 fds
 * here) does not stall the harness.
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
  // Asynchronously: the harness keeps a descriptor open per process it watches (hundreds), and
  // reading them all in one turn stalled it by about 9 ms a probe here.
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
