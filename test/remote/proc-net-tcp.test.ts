import { createServer, connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientSocketInode, findInodeIn } from '../../harness/remote/attribution/proc-net-tcp.js';
import { findSocketOwner } from '../../harness/remote/attribution/socket-owner.js';

const SAMPLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:A1B2 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1111 1 0 100 0 0 10 0
   1: 0100007F:A1B2 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 2222 1 0 20 4 30 10 -1
   2: 0100007F:C350 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 3333 1 0 20 4 30 10 -1
   3: 0100007F:C351 0100007F:A1B2 06 00000000:00000000 03:00000F3A 00000000     0        0 0 3 0
`;

describe('/proc/net/tcp lookup', () => {
  it('picks the line whose local port is the client port and remote port the server port', () => {
    // server 0xA1B2 = 41394, client 0xC350 = 50000
    expect(findInodeIn(SAMPLE, 0xc350, 0xa1b2)).toBe(3333);
    expect(findInodeIn(SAMPLE, 0xa1b2, 0xc350)).toBe(2222); // swapped: the server's own end
    expect(findInodeIn(SAMPLE, 0xc351, 0xa1b2)).toBeUndefined(); // TIME_WAIT: inode 0
    expect(findInodeIn(SAMPLE, 1, 2)).toBeUndefined();
  });

  it('finds the inode of a live loopback connection, and this process as its owner', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const serverPort = (server.address() as { port: number }).port;
    const accepted = new Promise<void>((r) => server.once('connection', () => r()));
    const client = connect(serverPort, '127.0.0.1');
    await new Promise<void>((r) => client.once('connect', () => r()));
    await accepted;
    try {
      const inode = clientSocketInode(client.localPort!, serverPort);
      expect(inode).toBeGreaterThan(0);
      // The server's own port is no client end.
      expect(clientSocketInode(serverPort, serverPort)).toBeUndefined();
      expect(await findSocketOwner(inode!, [process.pid])).toEqual({ pid: process.pid, method: 'candidate' });
      expect(await findSocketOwner(inode!, [1])).toEqual({ pid: process.pid, method: 'self' });
      expect(await findSocketOwner(inode!, [1], { self: false })).toEqual({ pid: process.pid, method: 'scan' });
      expect(await findSocketOwner(999_999_999, [])).toBeUndefined();
    } finally {
      client.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});
