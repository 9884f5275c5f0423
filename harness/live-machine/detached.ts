/**
 * A detached server: a live client still holds its stdio, but the launcher it started is gone
 * (docs/client-profiles.md), so the client never ends the real server. Seen as a live holder of
 * its stdio, started no later than the server, that is no ancestor of it.
 */
import type { EndHolder, StdioEnd } from './stdio-ends.js';
import { heldEnds, parentChain } from './client-of.js';
import type { StdioSession } from './stdio-sessions.js';
import type { ProcessEntry } from './types.js';

function groupLines(top: ProcessEntry, client: ProcessEntry | undefined, byPid: ReadonlyMap<number, ProcessEntry>): string[] {
  const lines: string[] = [];
  if (client && top.pgid === client.pgid) lines.push(`it is in client ${client.pid}'s process group ${top.pgid}, which a child of the client inherits`);
  else if (!byPid.has(top.pgid)) lines.push(`the leader of its process group ${top.pgid} is gone`);
  if (top.sid !== null && top.sid !== top.pgid && top.sid !== client?.sid && !byPid.has(top.sid)) lines.push(`the leader of its session ${top.sid} is gone`);
  return lines;
}

/** The evidence that the session is detached, or null when it is not. */
export function detachedEvidence(
  session: StdioSession,
  ends: readonly StdioEnd[],
  clients: readonly EndHolder[],
  byPid: ReadonlyMap<number, ProcessEntry>,
): string[] | null {
  const pids = new Set(session.members.map((m) => m.pid));
  const tops = session.members.filter((m) => !pids.has(m.ppid));
  const chains = tops.map((t) => parentChain(t, byPid));
  const ancestors = new Set(chains.flat().map((p) => p.pid));
  if (clients.some((c) => ancestors.has(c.pid))) return null;
  const top = session.members[0]!;
  const live = clients.filter((c) => c.state !== 'T' && c.state !== 't');
  const client = live.find((c) => c.startTime <= top.startTime);
  if (!client) return null;
  const chain = [top.pid, ...chains[0]!.map((p) => p.pid)].join(' -> ');
  return [
    `client ${client.pid} (${client.command}) holds ${heldEnds(client.pid, ends).join(' and ')}, state ${client.state}, and started before it`,
    `re-parented away from that client: its parent chain is ${chain}, which does not pass through ${client.pid}, so the process the client started is gone`,
    ...groupLines(top, byPid.get(client.pid), byPid),
  ];
}
