/** Which client a server belongs to: the configured entries it matches, and the live ancestor holding its stdio. */
import type { ClientId } from '../mcp-clients/types.js';
import type { EndHolder, StdioEnd } from './stdio-ends.js';
import type { StdioSession } from './stdio-sessions.js';
import type { ProcessEntry } from './types.js';

export interface ParentLink {
  pid: number;
  startTime: number;
  command: string;
}

export interface SessionClient {
  /** The clients of the configuration entries it matches, each entry once. */
  configured: { client: ClientId; entry: string }[];
  /** The live process that is its client, with what shows it; null when none is. */
  process: (EndHolder & { ancestor: boolean; holds: string[] }) | null;
  /** The parent chain of its top process, its parent first, as far as the table shows it. */
  parents: ParentLink[];
}

/** `pid`'s parent, grandparent, ... as long as the table has them (pid 1 is the last there is). */
export function parentChain(p: ProcessEntry, byPid: ReadonlyMap<number, ProcessEntry>): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  const seen = new Set([p.pid]);
  for (let next = byPid.get(p.ppid); next !== undefined && !seen.has(next.pid); next = byPid.get(next.ppid)) {
    out.push(next);
    seen.add(next.pid);
  }
  return out;
}

/** What `holder` holds of the session's stdio, one phrase an end: "the write end of pipe:[7] (its stdin)". */
export function heldEnds(holder: number, ends: readonly StdioEnd[]): string[] {
  return ends.filter((e) => e.holders?.some((h) => h.pid === holder)).map((e) => `${e.otherEnd} (${e.fd === 0 ? 'its stdin' : 'its stdout'})`);
}

export function clientOf(
  session: StdioSession,
  ends: readonly StdioEnd[],
  clients: readonly EndHolder[],
  byPid: ReadonlyMap<number, ProcessEntry>,
): SessionClient {
  const configured: SessionClient['configured'] = [];
  for (const m of session.configured)
    if (!configured.some((c) => c.client === m.client && c.entry === m.name)) configured.push({ client: m.client, entry: m.name });
  const parents = parentChain(session.members[0]!, byPid);
  const ancestors = parents.map((p) => p.pid);
  // The nearest ancestor that holds an end started it; else any holder.
  const starter = ancestors.map((pid) => clients.find((c) => c.pid === pid)).find((c) => c !== undefined);
  const holder = starter ?? clients[0];
  return {
    configured,
    process: holder ? { ...holder, ancestor: starter !== undefined, holds: heldEnds(holder.pid, ends) } : null,
    parents: parents.map((p) => ({ pid: p.pid, startTime: p.startTime, command: p.command })),
  };
}
