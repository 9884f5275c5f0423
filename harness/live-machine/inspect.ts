/** `crash-drill inspect <pid>` without printing: one process read before anything touches it (stdio ends, descriptors, kin, credential names). */
import { resolveEnd, type EndHolder, type StdioEnd } from './stdio-ends.js';
import type { ConfigMatch, ConfigMatcher } from '../mcp-clients/matcher.js';
import { credentialNames } from './credentials.js';
import { DRILL_ENV, findRealServer, isLauncher, type ChainProcess } from './observe.js';
import type { Backend, BackendName, Descriptor, ProcessEntry } from './types.js';
import { UserError } from '../util/errors.js';
import { descendantsOf } from '../containment/process-table.js';

export interface Related {
  pid: number;
  startTime: number;
  ppid: number;
  state: string;
  command: string;
}

export interface OtherDescriptor extends Descriptor {
  /** For a unix socket whose peer is known: the processes holding the peer. */
  peerHolders: EndHolder[] | null;
}

export interface Snapshot {
  backend: BackendName;
  takenAt: string;
  process: ProcessEntry;
  /** null when this user cannot read the process's descriptors (another user's, without root). */
  stdio: (StdioEnd & { access: Descriptor['access'] })[] | null;
  /** True when no live process holds the write end of its stdin: its client is gone, EOF is pending. */
  eofPending: boolean | null;
  descriptors: OtherDescriptor[] | null;
  related: { children: Related[]; grandchildren: Related[]; processGroup: Related[]; session: Related[] };
  credentials: string[] | null;
  marker: string | null;
  /** Top launcher first, down to the real server; just the process when there is no launcher. */
  launcherChain: { pid: number; startTime: number; command: string; launcher: boolean }[];
  /** The client configuration entries it or its launcher chain matches; null when none were read. */
  configured: (ConfigMatch & { pid: number })[] | null;
  blindSpots: string[];
}

export class InspectError extends UserError {
  readonly code = 'CRASH_DRILL_NO_SUCH_PROCESS';
}

const rel = (p: ProcessEntry): Related => ({ pid: p.pid, startTime: p.startTime, ppid: p.ppid, state: p.state, command: p.command });

function chainOf(p: ProcessEntry, table: ProcessEntry[], byPid: Map<number, ProcessEntry>, stdioOf: (pid: number) => Descriptor[] | null) {
  const key = (pid: number) => {
    const fds = stdioOf(pid);
    const a = fds?.find((d) => d.fd === 0)?.object;
    const b = fds?.find((d) => d.fd === 1)?.object;
    return a && b ? `${a}|${b}` : null;
  };
  const own = key(p.pid);
  let top = p;
  // Up while the parent shares the stdio and is a launcher: npm exec -> sh -c -> node.
  for (
    let parent = byPid.get(p.ppid);
    own && parent && parent.pid > 1 && key(parent.pid) === own && isLauncher(parent.argv ?? parent.command.split(' '));
    parent = byPid.get(parent.ppid)
  )
    top = parent;
  const chainTable: ChainProcess[] = table.map((q) => ({ pid: q.pid, startTime: q.startTime, ppid: q.ppid, cmdline: q.argv ?? q.command.split(' ') }));
  const server = findRealServer(chainTable, top, (pid, fd) => stdioOf(pid)?.find((d) => d.fd === fd)?.object ?? null);
  const out: ProcessEntry[] = [];
  for (let q: ProcessEntry | undefined = byPid.get(server.pid); q; q = q.pid === top.pid ? undefined : byPid.get(q.ppid)) out.unshift(q);
  return out.map((q) => ({ pid: q.pid, startTime: q.startTime, command: q.command, launcher: isLauncher(q.argv ?? q.command.split(' ')) }));
}

export function inspectProcess(backend: Backend, pid: number, configs?: ConfigMatcher): Snapshot {
  const takenAt = new Date().toISOString();
  const table = backend.processes();
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const p = byPid.get(pid);
  if (!p) throw new InspectError(`no process ${pid} on this machine`);
  const fds = backend.descriptors(pid);
  const holders = backend.holders();
  const own = new Set([pid, ...descendantsOf([pid], table)]);
  const stdio = fds
    ? ([0, 1, 2] as const).flatMap((fd) => {
        const d = fds.find((x) => x.fd === fd);
        if (!d) return [];
        const end =
          d.kind === 'pipe' || d.kind === 'socket' ? resolveEnd(d, fd, holders, own, byPid) : { fd, kind: d.kind, object: d.object, otherEnd: '', holders: [] };
        return [{ ...end, access: d.access }];
      })
    : null;
  const stdin = stdio?.find((s) => s.fd === 0);
  const eofPending =
    stdin === undefined ? null : stdin.kind !== 'pipe' && stdin.kind !== 'socket' ? false : stdin.holders === null ? null : stdin.holders.length === 0;
  const descriptors = fds
    ? fds
        .filter((d) => d.fd > 2)
        .map((d) => {
          const peer = d.kind === 'socket' && d.protocol !== 'tcp' && d.protocol !== 'tcp6' ? (d.peer ?? holders.peers?.get(d.object) ?? null) : null;
          const peerHolders =
            peer === null
              ? null
              : (holders.byObject.get(peer) ?? []).map((h) => ({
                  pid: h.pid,
                  startTime: byPid.get(h.pid)?.startTime ?? 0,
                  fd: h.fd,
                  state: byPid.get(h.pid)?.state ?? '?',
                  command: byPid.get(h.pid)?.command ?? '',
                }));
          return { ...d, peer, peerHolders };
        })
    : null;
  const children = table.filter((q) => q.ppid === pid);
  const childPids = new Set(children.map((c) => c.pid));
  const stdioCache = new Map<number, Descriptor[] | null>([[pid, fds]]);
  const stdioOf = (q: number) => {
    if (!stdioCache.has(q)) stdioCache.set(q, backend.stdio(q));
    return stdioCache.get(q)!;
  };
  const names = backend.environNames(pid);
  const launcherChain = chainOf(p, table, byPid, stdioOf);
  const blindSpots = [...backend.blindSpots];
  if (holders.peersUnavailable) blindSpots.push(holders.peersUnavailable);
  if (fds === null) blindSpots.push(`the descriptors of process ${pid} (user ${p.user}) cannot be read by this user: run as root to see them`);
  return {
    backend: backend.name,
    takenAt,
    process: p,
    stdio,
    eofPending,
    descriptors,
    related: {
      children: children.map(rel),
      grandchildren: table.filter((q) => childPids.has(q.ppid)).map(rel),
      processGroup: table.filter((q) => q.pgid === p.pgid && q.pid !== pid && q.pid !== process.pid).map(rel),
      session: p.sid === null ? [] : table.filter((q) => q.sid === p.sid && q.pid !== pid && q.pid !== process.pid).map(rel),
    },
    credentials: names === null ? null : credentialNames(names),
    marker: backend.environValue(pid, DRILL_ENV),
    launcherChain,
    configured: configs
      ? launcherChain.flatMap((c) => {
          const q = byPid.get(c.pid);
          return q ? configs.matchProcess(q, backend.cwd?.bind(backend)).map((m) => ({ ...m, pid: q.pid })) : [];
        })
      : null,
    blindSpots,
  };
}
