/**
 * Who holds the other end of a server's stdin or stdout: the write end of its stdin pipe, the
 * read end of its stdout pipe, or, for a socket (Node clients give their children socketpairs),
 * the peer socket. Zombies and the session's own processes are no holders.
 */
import type { Descriptor, DescriptorHolder, DescriptorHolders, ProcessEntry } from './types.js';

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
