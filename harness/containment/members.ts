/**
 * The processes of the contained process's run, each with its proof; only these may be SIGKILLed.
 * A group or session counts only when a member leads it: an inherited one is the client's.
 */
import { descendantsOf, type TableProcess } from './process-table.js';

export interface Member {
  pid: number;
  startTime: number;
  command: string;
  uid: number | null;
  proof: string;
}

export function runMembers(root: TableProcess, table: readonly TableProcess[], earlier: readonly Member[] = []): Member[] {
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const out = new Map<number, Member>();
  const add = (p: TableProcess, proof: string) => {
    if (!out.has(p.pid) && p.state !== 'Z') out.set(p.pid, { pid: p.pid, startTime: p.startTime, command: p.command, uid: p.uid, proof });
  };
  add(root, 'the process itself');
  for (const m of earlier) {
    const now = byPid.get(m.pid);
    if (now && now.startTime === m.startTime) add(now, m.proof);
  }
  for (const pid of descendantsOf([root.pid], table)) {
    const p = byPid.get(pid)!;
    if (p.startTime >= root.startTime) add(p, `a descendant of ${root.pid}`);
  }
  const leaders = new Set(out.keys());
  for (const p of table) {
    if (p.startTime < root.startTime || out.has(p.pid)) continue;
    if (leaders.has(p.pgid)) add(p, `in process group ${p.pgid}, led by member ${p.pgid}`);
    else if (p.sid !== null && leaders.has(p.sid)) add(p, `in session ${p.sid}, led by member ${p.sid}`);
  }
  return [...out.values()];
}
