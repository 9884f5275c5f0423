/** What a surviving process holds (identity, stdio, endpoints, credential names), redacted so a row is safe in reports. */
import { monoNow } from '../util/clock.js';
import { redact, type Secret } from '../util/secrets.js';
import type { ProcIdentity } from './identity.js';
import { socketInodes, tcpConnections, unixSockets, type TcpConn, type UnixSock } from './net.js';
import { fdIsFifo, readCmdline, readEnviron, readFdLink, readStat, startTimeToMono } from './proc.js';

export type FdKind = 'pipe' | 'socket' | 'file' | 'tty' | 'anon' | 'other';
export type FdInfo = { fd: number; target: string; kind: FdKind };

export type SurvivorRow = {
  pid: number;
  startTime: number;
  ppid: number;
  pgid: number;
  sid: number;
  state: string;
  elapsedMs: number;
  cmdline: string[];
  /** fds 0, 1 and 2 that are open; a closed one is left out. */
  fds: FdInfo[];
  tcp: TcpConn[];
  unix: UnixSock[];
  /** vars: env names whose value contains a secret; 'argv[i]' when an argument did (redacted). */
  credential: { present: boolean; vars: string[] };
  foundBy: string[];
};

export function classifyFd(target: string): FdKind {
  if (target.startsWith('pipe:')) return 'pipe';
  if (target.startsWith('socket:')) return 'socket';
  if (target.startsWith('anon_inode:')) return 'anon';
  if (/^\/dev\/(pts\/\d+|tty\w*|console)$/.test(target)) return 'tty';
  if (target.startsWith('/')) return 'file';
  return 'other';
}

function stdioFds(pid: number): FdInfo[] {
  const out: FdInfo[] = [];
  for (const fd of [0, 1, 2]) {
    const target = readFdLink(pid, fd); // null: closed (or the process is gone)
    // A FIFO (a client's real pipe: harness/shared/fifo-stdio.ts) links to a path, but is a pipe.
    if (target !== null) out.push({ fd, target, kind: classifyFd(target) === 'file' && fdIsFifo(pid, fd) ? 'pipe' : classifyFd(target) });
  }
  return out;
}

export function inventory(id: ProcIdentity, opts: { secrets: readonly Secret[]; foundBy?: string[] }): SurvivorRow | null {
  const stat = readStat(id.pid);
  if (stat === null || stat.startTime !== id.startTime) return null;
  const secrets = opts.secrets.filter((s) => s.value.length > 0);
  const vars: string[] = [];
  for (const [name, value] of readEnviron(id.pid) ?? []) {
    if (secrets.some((s) => value.includes(s.value))) vars.push(name);
  }
  const argv = readCmdline(id.pid) ?? [];
  const cmdline = argv.map((arg, i) => {
    if (secrets.some((s) => arg.includes(s.value))) vars.push(`argv[${i}]`);
    return redact(arg, secrets);
  });
  const inodes = socketInodes(id.pid);
  const row: SurvivorRow = {
    pid: stat.pid,
    startTime: stat.startTime,
    ppid: stat.ppid,
    pgid: stat.pgid,
    sid: stat.sid,
    state: stat.state,
    elapsedMs: Math.max(0, Math.round(monoNow() - startTimeToMono(stat.startTime))),
    cmdline,
    fds: stdioFds(id.pid),
    tcp: tcpConnections(id.pid, inodes),
    unix: unixSockets(id.pid, inodes),
    credential: { present: vars.length > 0, vars },
    foundBy: [...(opts.foundBy ?? [])],
  };
  // fd targets can name files; a path holding the secret is redacted too.
  for (const fd of row.fds) fd.target = redact(fd.target, secrets);
  for (const u of row.unix) if (u.path !== null) u.path = redact(u.path, secrets);
  return row;
}
