/**
 * Sockets of a process: fds name socket inodes, /proc/PID/net/{tcp,tcp6,unix} map them to
 * endpoints (proc(5), Documentation/networking/proc_net_tcp.rst). Parsed here, also for
 * harness/remote/attribution/proc-net-tcp.ts.
 */
import { listFds, readFdLink, readNetTable } from './proc.js';

export type TcpConn = { local: string; remote: string; state: string };
export type UnixSock = { inode: number; path: string | null };

/** include/net/tcp_states.h */
const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
  '0C': 'NEW_SYN_RECV',
};

/** Socket inodes held by any fd of the process. */
export function socketInodes(pid: number): Set<number> {
  const inodes = new Set<number>();
  for (const fd of listFds(pid) ?? []) {
    const link = readFdLink(pid, fd); // null: closed meanwhile
    const m = link === null ? null : /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(Number(m[1]));
  }
  return inodes;
}

/** One line of a tcp or tcp6 table, its addresses still in the kernel's hex `ADDR:PORT`. */
export type TcpLine = { local: string; remote: string; state: string; inode: number };

/** The fields of one table line (`sl local_address rem_address st ... uid timeout inode`), or null for a short line. */
export function parseTcpLine(line: string): TcpLine | null {
  const f = line.trim().split(/\s+/);
  if (f.length < 10) return null;
  return { local: f[1]!, remote: f[2]!, state: f[3]!, inode: Number(f[9]) };
}

/** Each 32-bit word is in host (little-endian on x86/arm) byte order. */
function decodeAddress(hex: string): string {
  const [addr = '', portHex = '0'] = hex.split(':');
  const port = parseInt(portHex, 16);
  const words = addr.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => [6, 4, 2, 0].map((i) => parseInt(w.slice(i, i + 2), 16)));
  if (bytes.length === 4) return `${bytes.join('.')}:${port}`;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) reads better in its dotted form.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return `[::ffff:${bytes.slice(12).join('.')}]:${port}`;
  }
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  return `[${compressIpv6(groups)}]:${port}`;
}

/** RFC 5952: the longest run of two or more zero groups becomes '::'. */
function compressIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLen) [bestStart, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

export function parseTcpTable(text: string, inodes: Set<number>): TcpConn[] {
  const out: TcpConn[] = [];
  for (const line of text.split('\n').slice(1)) {
    const l = parseTcpLine(line);
    if (l === null || !inodes.has(l.inode)) continue;
    out.push({ local: decodeAddress(l.local), remote: decodeAddress(l.remote), state: TCP_STATES[l.state] ?? l.state });
  }
  return out;
}

export function parseUnixTable(text: string, inodes: Set<number>): UnixSock[] {
  const out: UnixSock[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 7 || !inodes.has(Number(f[6]))) continue;
    out.push({ inode: Number(f[6]), path: f.length > 7 ? f.slice(7).join(' ') : null });
  }
  return out;
}

export function tcpConnections(pid: number, inodes = socketInodes(pid)): TcpConn[] {
  if (inodes.size === 0) return [];
  return [...parseTcpTable(readNetTable(pid, 'tcp'), inodes), ...parseTcpTable(readNetTable(pid, 'tcp6'), inodes)];
}

export function unixSockets(pid: number, inodes = socketInodes(pid)): UnixSock[] {
  if (inodes.size === 0) return [];
  return parseUnixTable(readNetTable(pid, 'unix'), inodes);
}
