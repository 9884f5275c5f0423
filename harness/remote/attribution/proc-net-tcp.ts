import { parseTcpLine } from '../../observe/index.js';
import { scanNetTable } from '../../observe/index.js';

/**
 * Finds the inode of the client end of a loopback TCP connection (in the network namespace of
 * `inNetworkOf` when given: a drill's loopback-only network, relayed.ts). /proc/net/tcp lists one
 * socket a line as `sl local_address rem_address st ... uid timeout inode` with addresses in
 * hex `ADDR:PORT` (proc(5)). The client end is the line whose LOCAL port is the client's port
 * and whose REMOTE port is the server's port; the server's own end has them swapped.
 *
 * It is read synchronously, in the turn that accepts the connection (attributor.ts): the line
 * exists only while the sender holds its socket, and a sender that stops waiting for its answer
 * (static-key-holder bounds each request to 200 ms) closes it when it exits. Read off the main
 * thread instead, a lookup waited for the thread pool (taken by other lookups' fd reads) and
 * for the harness's later turns: beside the unprivileged matrix and two CPU burners, a median
 * 0.1 to 0.4 s and up to 4.4 s after the accept, and up to one remote matrix connection in five
 * had no process. Each read(2) returns about a page of lines and walks the
 * established hash only that far, so the read stops at the wanted line (scanNetTable in
 * harness/observe/proc/net-tables.ts): the whole file costs about 6 ms here
 * (net.ipv4.tcp_ehash_entries is 262144), the wanted line half of that on average
 * (test/remote/overhead.test.ts).
 */
export function clientSocketInode(clientPort: number, serverPort: number, inNetworkOf?: number): number | undefined {
  // AF_INET6 clients (e.g. ::ffff:127.0.0.1) are listed in tcp6 only: read it when tcp has no
  // line at all, not when its line says the sender has closed its end already (inode 0).
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
