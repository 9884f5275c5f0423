/**
 * Classifying a session by who holds the other end of its stdio:
 * - client gone: no live process holds the write end of its stdin or the read end of its
 *   stdout (for a socket: its peer socket). A ppid of 1 is reported as a hint only.
 * - client stuck: a client is alive but stopped (state T), or it has left the server's output
 *   unread at every look for --stuck-after (pending.ts).
 * - attached: a client is alive and reading.
 * - unresolved: a stdio socket whose peer cannot be resolved (no `ss`): never guessed.
 */
import { descendantsOf } from '../containment/process-table.js';
import type { StdioSession } from './stdio-sessions.js';
import type { Descriptor, DescriptorHolder, DescriptorHolders, ProcessEntry } from './types.js';

export type OrphanClass = 'client-gone' | 'client-stuck' | 'attached' | 'unresolved';

export interface EndHolder {
  pid: number;
  startTime: number;
  fd: number;
  state: string;
  command: string;
}

export interface StdioEnd {
  fd: 0 | 1 | 2;
  kind: Descriptor['kind'];
  object: string;
  /** What the client holds: the write end of stdin, the read end of stdout, or the peer socket. */
  otherEnd: string;
  /** Live holders of the other end; null when it could not be resolved. */
  holders: EndHolder[] | null;
}

export interface Classified {
  classification: OrphanClass;
  evidence: string[];
  ends: StdioEnd[];
  clients: EndHolder[];
  /** Unread bytes on a client's end of the server's stdout, with that reader's identity key. */
  unread: { key: string; bytes: number; reader: number } | null;
}

export function resolveEnd(d: Descriptor, fd: 0 | 1 | 2, holders: DescriptorHolders, own: Set<number>, byPid: Map<number, ProcessEntry>): StdioEnd {
  const wanted = fd === 0 ? 'w' : 'r';
  let otherEnd: string;
  let list: DescriptorHolder[] | null;
  if (d.kind === 'pipe') {
    otherEnd = fd === 0 ? `the write end of ${d.object}` : `the read end of ${d.object}`;
    list = (holders.byObject.get(d.object) ?? []).filter((h) => h.access === wanted || h.access === 'rw');
  } else if (holders.peers === null && d.peer === null) {
    return { fd, kind: d.kind, object: d.object, otherEnd: `the other end of ${d.object}`, holders: null };
  } else {
    const peer = d.peer ?? holders.peers?.get(d.object) ?? null;
    otherEnd = peer === null ? `the other end of ${d.object} (its peer socket is closed)` : `the other end of ${d.object} (${peer})`;
    list = peer === null ? [] : (holders.byObject.get(peer) ?? []);
  }
  const live: EndHolder[] = [];
  for (const h of list) {
    const p = byPid.get(h.pid);
    if (!p || own.has(h.pid) || p.state === 'Z' || live.some((l) => l.pid === h.pid)) continue;
    live.push({ pid: p.pid, startTime: p.startTime, fd: h.fd, state: p.state, command: p.command });
  }
  return { fd, kind: d.kind, object: d.object, otherEnd, holders: live };
}

export function classify(session: StdioSession, table: readonly ProcessEntry[], byPid: Map<number, ProcessEntry>, holders: DescriptorHolders): Classified {
  const own = new Set([
    ...session.members.map((m) => m.pid),
    ...descendantsOf(
      session.members.map((m) => m.pid),
      table,
    ),
  ]);
  const ends = [resolveEnd(session.stdin, 0, holders, own, byPid), resolveEnd(session.stdout, 1, holders, own, byPid)];
  const clients: EndHolder[] = [];
  for (const end of ends) for (const h of end.holders ?? []) if (!clients.some((c) => c.pid === h.pid)) clients.push(h);
  const top = session.members[0]!;
  const hint = top.ppid === 1 ? ['hint only: its parent is pid 1'] : [];

  const stdoutPeer = session.stdout.kind === 'socket' ? (session.stdout.peer ?? holders.peers?.get(session.stdout.object) ?? null) : null;
  const reader = ends[1]!.holders?.[0];
  const bytes = stdoutPeer !== null ? (holders.unread?.get(stdoutPeer) ?? 0) : 0;
  const unread = reader && bytes > 0 ? { key: `${reader.pid}:${reader.startTime}:${stdoutPeer}`, bytes, reader: reader.pid } : null;

  const unresolved = ends.filter((e) => e.holders === null);
  if (unresolved.length > 0 && clients.length === 0) {
    const why = holders.peersUnavailable ?? 'the peer could not be resolved';
    return {
      classification: 'unresolved',
      evidence: [...unresolved.map((e) => `${e.fd === 0 ? 'stdin' : 'stdout'} is ${e.object}: ${why}`), ...hint],
      ends,
      clients,
      unread,
    };
  }
  if (clients.length === 0) {
    const lines = ends.map((e) => `no live process holds ${e.otherEnd} (${e.fd === 0 ? 'its stdin' : 'its stdout'})`);
    return { classification: 'client-gone', evidence: [...lines, `EOF is pending on its stdin`, ...hint], ends, clients, unread };
  }
  const stopped = clients.filter((c) => c.state === 'T' || c.state === 't');
  if (stopped.length === clients.length) {
    return {
      classification: 'client-stuck',
      evidence: stopped.map((c) => `client ${c.pid} (${c.command}) is stopped (state ${c.state})`),
      ends,
      clients,
      unread,
    };
  }
  const via = clients.map(
    (c) => `client ${c.pid} (${c.command}) holds ${ends.find((e) => e.holders?.some((h) => h.pid === c.pid))!.otherEnd}, state ${c.state}`,
  );
  return { classification: 'attached', evidence: via, ends, clients, unread };
}
