/**
 * The /proc backend (Linux): the observer's readers, fd links, the link's permission bits for the
 * access mode (proc(5)), and `ss` for unix socket peers, which /proc does not show.
 */
import {
  classifyFd,
  fdLinkMode,
  isKernelThread,
  listFds,
  listPids,
  readCmdline,
  readCwd,
  readEnviron,
  readEnvironValues,
  readFdLink,
  readFdLinkOrThrow,
  readIo,
  readOwnerUid,
  readStat,
  startTimeToMono,
  tcpConnections,
  unixSockets,
} from './observe.js';
import { monoNow } from '../util/clock.js';
import type { Access, Backend, Descriptor, DescriptorKind, DescriptorHolder, ProcessEntry } from './types.js';
import { readUnixPeers } from './unix-peers.js';
import { userName } from './users.js';

function kindOf(target: string): DescriptorKind {
  if (target === '/dev/null') return 'null';
  const kind = classifyFd(target);
  return kind === 'anon' ? 'other' : kind;
}

function accessOf(pid: number, fd: number | string): Access {
  const mode = fdLinkMode(pid, fd);
  if (mode === null) return null;
  const r = (mode & 0o400) !== 0;
  const w = (mode & 0o200) !== 0;
  return r && w ? 'rw' : w ? 'w' : r ? 'r' : null;
}

function entryOf(pid: number): ProcessEntry | null {
  const stat = readStat(pid);
  // Kernel threads have no fds, argv or user to show.
  if (stat === null || isKernelThread(stat)) return null;
  const uid = readOwnerUid(pid);
  if (uid === null) return null;
  const argv = readCmdline(pid) ?? [];
  const elapsedMs = Math.max(0, Math.round(monoNow() - startTimeToMono(stat.startTime)));
  return {
    pid,
    ppid: stat.ppid,
    pgid: stat.pgid,
    sid: stat.sid,
    user: userName(uid),
    uid,
    state: stat.state,
    startTime: stat.startTime,
    startedAt: new Date(Date.now() - elapsedMs).toISOString(),
    elapsedMs,
    command: argv.length > 0 ? argv.join(' ') : `[${stat.comm}]`,
    argv,
  };
}

function describe(pid: number, fd: number, target: string, withNet: boolean): Descriptor {
  const kind = kindOf(target);
  const d: Descriptor = { fd, kind, access: kind === 'socket' ? 'rw' : accessOf(pid, fd), object: target, protocol: null, tcp: null, path: null, peer: null };
  if (kind === 'socket' && withNet) {
    const inode = Number(/\d+/.exec(target)?.[0]);
    const tcp = tcpConnections(pid, new Set([inode]));
    const unix = tcp.length === 0 ? unixSockets(pid, new Set([inode])) : [];
    if (tcp[0]) {
      d.protocol = tcp[0].local.startsWith('[') ? 'tcp6' : 'tcp';
      d.tcp = tcp[0];
    } else if (unix[0]) {
      d.protocol = 'unix';
      d.path = unix[0].path;
    }
  }
  return d;
}

function readFds(pid: number, only: number[] | null, withNet: boolean): Descriptor[] | null {
  const names = only ? only.map(String) : listFds(pid);
  if (names === null) return null;
  const out: Descriptor[] = [];
  for (const name of names) {
    try {
      out.push(describe(pid, Number(name), readFdLinkOrThrow(pid, name), withNet));
    } catch (error) {
      // EACCES: another user's process; the whole answer is unknown, not "no fds".
      if ((error as NodeJS.ErrnoException).code === 'EACCES') return null;
    }
  }
  return out.sort((a, b) => a.fd - b.fd);
}

export const procBackend: Backend = {
  name: 'proc',
  blindSpots: [],
  processes() {
    const out: ProcessEntry[] = [];
    for (const pid of listPids()) {
      const entry = entryOf(pid);
      if (entry) out.push(entry);
    }
    return out;
  },
  process: entryOf,
  stdio: (pid) => readFds(pid, [0, 1, 2], false),
  descriptors: (pid) => readFds(pid, null, true),
  holders(wanted) {
    const byObject = new Map<string, DescriptorHolder[]>();
    for (const pid of listPids()) {
      for (const name of listFds(pid) ?? []) {
        const target = readFdLink(pid, name);
        if (target === null) continue;
        const pipe = target.startsWith('pipe:');
        if (!pipe && !target.startsWith('socket:')) continue;
        // The access mode costs an lstat: only for the pipes asked about.
        if (pipe && wanted && !wanted.has(target)) continue;
        const holder: DescriptorHolder = { pid, fd: Number(name), access: pipe ? accessOf(pid, name) : 'rw' };
        const list = byObject.get(target);
        if (list) list.push(holder);
        else byObject.set(target, [holder]);
      }
    }
    const ss = readUnixPeers();
    return typeof ss === 'string'
      ? { byObject, peers: null, unread: null, peersUnavailable: ss }
      : { byObject, peers: ss.peers, unread: ss.unread, peersUnavailable: null };
  },
  environNames(pid) {
    const env = readEnviron(pid);
    return env ? [...env.keys()] : null;
  },
  environValue(pid, name) {
    return readEnviron(pid)?.get(name) ?? null;
  },
  // A raw search, not readEnviron's map: this runs over every process of the machine.
  environValues: readEnvironValues,
  cwd: readCwd,
  ioCounters: readIo,
};
