/**
 * The other end of a unix socket: /proc/net/unix has no peer, which only the sock_diag netlink
 * gives (UNIX_DIAG_PEER, not open to Node), so `ss -xa` asks for us. Node's child stdio are
 * socketpairs (libuv's uv_socketpair): this is how a Node client's end is found.
 */
import { execFileSync } from 'node:child_process';

export interface UnixPeers {
  /** `socket:[inode]` -> `socket:[peer inode]`, only for sockets whose peer is alive. */
  peers: Map<string, string>;
  /** Bytes queued unread on a socket (its Recv-Q), by `socket:[inode]`, when non-zero. */
  unread: Map<string, number>;
}

// u_str ESTAB 0 0 * 91581 * 91580 (Netid State Recv-Q Send-Q Local Port Peer Port); the
// addresses may be paths with spaces, so the numbers are matched from both ends.
const LINE = /^(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(.*?)\s+(\d+)\s+(.*?)\s+(\d+)\s*$/;

export function parseSsUnix(text: string): UnixPeers {
  const peers = new Map<string, string>();
  const unread = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = LINE.exec(line.trim());
    if (!m) continue;
    const self = `socket:[${m[6]}]`;
    if (m[8] !== '0') peers.set(self, `socket:[${m[8]}]`);
    if (m[3] !== '0' && m[2] !== 'LISTEN') unread.set(self, Number(m[3]));
  }
  return { peers, unread };
}

/** Runs `ss -xaH`; the reason as a string when it cannot. */
export function readUnixPeers(): UnixPeers | string {
  try {
    return parseSsUnix(execFileSync('ss', ['-xaH'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'ss (iproute2) is not installed: the peers of unix sockets cannot be read from /proc'
      : `ss -xa failed (${code ?? 'error'}): the peers of unix sockets are unknown`;
  }
}
