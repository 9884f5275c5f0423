/** Classifies a session by who holds the other end of its stdio (ppid 1 is only a hint; an unresolved peer is never guessed). */
import { descendantsOf } from '../containment/process-table.js';
import { detachedEvidence } from './detached.js';
import { resolveEnd, type EndHolder, type StdioEnd } from './stdio-ends.js';
import type { StdioSession } from './stdio-sessions.js';
import type { DescriptorHolders, ProcessEntry } from './types.js';

export type OrphanClass = 'client-gone' | 'client-stuck' | 'detached' | 'superseded' | 'attached' | 'unresolved';

/** Every class, in the order the summary line counts them. */
export const ORPHAN_CLASSES: readonly OrphanClass[] = ['client-gone', 'client-stuck', 'detached', 'superseded', 'attached', 'unresolved'];

/** The classes `orphans` reports without --all and counts for its exit code. */
export const ORPHANED: ReadonlySet<OrphanClass> = new Set(['client-gone', 'client-stuck', 'detached', 'superseded']);

export interface Classified {
  classification: OrphanClass;
  evidence: string[];
  ends: StdioEnd[];
  clients: EndHolder[];
  /** Unread bytes on a client's end of the server's stdout, with that reader's identity key. */
  unread: { key: string; bytes: number; reader: number } | null;
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
  const detached = detachedEvidence(session, ends, clients, byPid);
  if (detached) return { classification: 'detached', evidence: detached, ends, clients, unread };
  const via = clients.map(
    (c) => `client ${c.pid} (${c.command}) holds ${ends.find((e) => e.holders?.some((h) => h.pid === c.pid))!.otherEnd}, state ${c.state}`,
  );
  return { classification: 'attached', evidence: via, ends, clients, unread };
}
