/**
 * Whom a client's signal reaches (harness/client-profiles/profiles.ts, `Reach`), read from /proc
 * now: the child, its group, its tree (VS Code's terminateProcess.sh, Zed's kill_descendant_tree)
 * or its descendants (OpenCode). Each is signalled by identity (harness/containment/signal.ts).
 */
import { listPids, readStatOnce } from '../observe/index.js';
import type { ProcIdentity } from '../observe/index.js';

type Row = { pid: number; ppid: number; pgid: number; startTime: number; state: string };

function table(): Row[] {
  const rows: Row[] = [];
  for (const pid of listPids()) {
    const stat = readStatOnce(pid);
    if (stat) rows.push({ pid, ppid: stat.ppid, pgid: stat.pgid, startTime: stat.startTime, state: stat.state });
  }
  return rows;
}

const live = (row: Row) => row.state !== 'Z' && row.state !== 'X';

/** The live members of process group `pgid` (a zombie cannot be signalled into anything). */
export function groupMembers(pgid: number): ProcIdentity[] {
  return table()
    .filter((row) => row.pgid === pgid && live(row))
    .map(({ pid, startTime }) => ({ pid, startTime }));
}

/** The child and its live descendants by parent pid, deepest first (children before parents, as both clients kill them). */
export function treeMembers(child: ProcIdentity): ProcIdentity[] {
  const rows = table();
  const children = new Map<number, Row[]>();
  for (const row of rows) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row]);
  const root = rows.find((row) => row.pid === child.pid && row.startTime === child.startTime);
  if (!root) return [];
  const out: ProcIdentity[] = [];
  const visit = (row: Row, depth: number) => {
    if (depth > 64) return;
    for (const below of children.get(row.pid) ?? []) visit(below, depth + 1);
    if (live(row)) out.push({ pid: row.pid, startTime: row.startTime });
  };
  visit(root, 0);
  return out;
}

/** The child's live descendants by parent pid, the child left out, parents before children (OpenCode walks `pgrep -P` breadth first). */
export function descendantMembers(child: ProcIdentity): ProcIdentity[] {
  const rows = table();
  const children = new Map<number, Row[]>();
  for (const row of rows) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row]);
  if (!rows.some((row) => row.pid === child.pid && row.startTime === child.startTime)) return [];
  const out: ProcIdentity[] = [];
  const queue = [child.pid];
  const seen = new Set(queue);
  while (queue.length > 0) {
    for (const row of children.get(queue.shift()!) ?? []) {
      if (seen.has(row.pid)) continue;
      seen.add(row.pid);
      queue.push(row.pid);
      if (live(row)) out.push({ pid: row.pid, startTime: row.startTime });
    }
  }
  return out;
}
