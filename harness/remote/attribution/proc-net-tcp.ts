import { parseTcpLine } from '../../observe/index.js';
import { scanNetTable } from '../../observe/index.js';

/**
 * The inode of the client end of a loopback TCP connection, from /proc/net/tcp (proc(5)), read in
 * the accepting turn: the line lives only while the sender holds its socket.
 */
export function clientSocketInode(clientPort: number, serverPort: number, inNetworkOf?: number): number | undefined {
  // AF_INET6 clients are in tcp6 only: read it when tcp has no line, not when its inode is 0 (closed).
  const wanted = `:${hexPort(clientPort)}`;
  const remote = `:${hexPort(serverPort)}`;
  const match = (line: string): number | undefined => matchLine(line, wanted, remote);
  const inode = scanNetTable('tcp', match, inNetworkOf) ?? scanNetTable('tcp6', match, inNetworkOf);
  return inode === 0 ? undefined : inode;
}

/** The line's inode when it is the client end wanted; 0 when its process closed it (FIN_WAIT, TIME_WAIT: no process holds it). */
function matchLine(line: string, wanted: string, remote: string): number | undefined {
  const l = parseTcpLine(line);
  if (l === null || !l.remote.endsWith(remote) || !l.local.endsWith(wanted)) return undefined;
  return Number.isInteger(l.inode) && l.inode > 0 ? l.inode : 0;
}

/** Exported for tests: parses the text of /proc/net/tcp or tcp6. */
export function findInodeIn(text: string, clientPort: number, serverPort: number): number | undefined {
  const wanted = `:${hexPort(clientPort)}`;
  const remote = `:${hexPort(serverPort)}`;
  for (const line of text.split('\n').slice(1)) {
    const inode = matchLine(line, wanted, remote);
    if (inode !== undefined) return inode === 0 ? undefined : inode;
  }
  return undefined;
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}
