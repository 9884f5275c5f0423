import { open } from 'node:fs/promises';

/**
 * Finds the inode of the client end of loopback TCP connections. /proc/net/tcp lists one
 * socket a line as `sl local_address rem_address st ... uid timeout inode` with addresses in
 * hex `ADDR:PORT` (proc(5)). The client end is the line whose LOCAL port is the client's port
 * and whose REMOTE port is the server's port; the server's own end has them swapped.
 *
 * Reading the file is slow however few sockets there are: the kernel walks every bucket of
 * the established hash (net.ipv4.tcp_ehash_entries, 262144 here), about 6 ms a read on this
 * machine (test/remote/overhead.test.ts). So the file is read off the main thread, in
 * chunks, stopping as soon as every wanted port is found, and lookups that arrive while a
 * read runs are batched into the next one.
 */
export class ProcNetTcp {
  private queue = new Map<number, Array<(inode: number | undefined) => void>>();
  private running = false;

  constructor(private readonly serverPort: number) {}

  lookup(clientPort: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const waiters = this.queue.get(clientPort) ?? [];
      waiters.push(resolve);
      this.queue.set(clientPort, waiters);
      if (!this.running) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.size > 0) {
        const batch = this.queue;
        this.queue = new Map();
        const found = new Map<number, number>();
        await scanFile('/proc/net/tcp', [...batch.keys()], this.serverPort, found);
        // AF_INET6 clients (e.g. ::ffff:127.0.0.1) are listed in tcp6 only.
        const missing = [...batch.keys()].filter((p) => !found.has(p));
        if (missing.length > 0) await scanFile('/proc/net/tcp6', missing, this.serverPort, found);
        for (const [port, waiters] of batch) for (const w of waiters) w(found.get(port));
      }
    } finally {
      this.running = false;
    }
  }
}

async function scanFile(path: string, ports: number[], serverPort: number, found: Map<number, number>): Promise<void> {
  const wanted = new Map(ports.map((p) => [':' + hexPort(p), p]));
  const remote = ':' + hexPort(serverPort);
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return;
  }
  try {
    const buf = Buffer.alloc(64 * 1024);
    let carry = '';
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      const lines = (carry + buf.toString('latin1', 0, bytesRead)).split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) matchLine(line, wanted, remote, found);
      if (found.size >= ports.length && ports.every((p) => found.has(p))) return;
    }
    matchLine(carry, wanted, remote, found);
  } finally {
    await handle.close();
  }
}

function matchLine(line: string, wanted: Map<string, number>, remote: string, found: Map<number, number>): void {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 10 || !fields[2].endsWith(remote)) return;
  const port = wanted.get(fields[1].slice(fields[1].lastIndexOf(':')));
  const inode = Number(fields[9]);
  // Inode 0 means the socket is in TIME_WAIT and owned by no process any more.
  if (port !== undefined && inode > 0 && !found.has(port)) found.set(port, inode);
}

/** Exported for tests: parses the text of /proc/net/tcp or tcp6. */
export function findInodeIn(text: string, clientPort: number, serverPort: number): number | undefined {
  const found = new Map<number, number>();
  const wanted = new Map([[':' + hexPort(clientPort), clientPort]]);
  const remote = ':' + hexPort(serverPort);
  for (const line of text.split('\n').slice(1)) matchLine(line, wanted, remote, found);
  return found.get(clientPort);
}

function hexPort(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, '0');
}
