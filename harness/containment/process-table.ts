/**
 * The process table as `contain <pid>` (process.ts) reads it, filled by either backend of
 * harness/live-machine/; containment asks nothing else of a backend.
 */

export interface TableProcess {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id; null where the backend cannot show it (macOS ps has no sid column). */
  sid: number | null;
  user: string;
  uid: number | null;
  /** One letter: R S D T t Z I ... */
  state: string;
  /** With the pid, the identity: comparable only within one backend (clock ticks, or whole seconds on ps). */
  startTime: number;
  command: string;
}

/** A reader of the process table: `proc` (/proc, signalled by identity through harness/containment/signal.ts) or another. */
export interface ProcessTable {
  readonly name: string;
  processes(): TableProcess[];
  /** One process, read now; null when it is gone. */
  process(pid: number): TableProcess | null;
}

/** Every descendant of the roots in a table, by parent links. */
export function descendantsOf(roots: Iterable<number>, table: readonly { pid: number; ppid: number }[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const p of table) {
    const list = children.get(p.ppid);
    if (list) list.push(p.pid);
    else children.set(p.ppid, [p.pid]);
  }
  const out = new Set<number>();
  const todo = [...roots];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (out.has(child)) continue;
      out.add(child);
      todo.push(child);
    }
  }
  return out;
}

/** This process and its ancestors, by the table's parent links: never contained, never reported. */
export function selfAndAncestors(byPid: ReadonlyMap<number, { ppid: number }>, self = process.pid): Set<number> {
  const out = new Set<number>();
  for (let pid: number | undefined = self; pid !== undefined && pid > 0 && !out.has(pid); pid = byPid.get(pid)?.ppid) out.add(pid);
  return out;
}
