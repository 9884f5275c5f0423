/**
 * A detached server: a live client still holds the other end of its stdio, but the process the
 * client started is gone and the server was re-parented away from it. This is what a launcher
 * that forwards no signal leaves when a client signals only its direct child (Gemini CLI's and
 * Claude Code's stop, docs/client-profiles.md): the launcher dies, the real server runs on with
 * the client's pipes, and the client, which counts its server as stopped, never ends it.
 *
 * One look decides it, from the process table and the descriptors:
 * - a live holder of its stdin's write end or its stdout's read end (not stopped: that is
 *   client-stuck) is no ancestor of any of its top processes: the kernel re-parents a process
 *   only when its parent dies, so the process the client started, directly or through a
 *   launcher, is gone;
 * - that holder started no later than the server: it could have started it. A process handed
 *   the pipe later (a reader the client passed the server's stdout to) could not.
 * Its process group and session are shown, not required: a child of a same-group client is in
 * the client's group; a launcher spawned in a group or session of its own (Codex, the Python
 * SDK, Zed) leaves one whose leader is gone.
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
