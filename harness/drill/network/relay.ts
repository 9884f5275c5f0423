/**
 * The harness's end of the relay into a drill's loopback-only network (keeper.pl): a unix
 * socket in the file system, which a process in another network namespace can connect to,
 * where each connection is passed on to one port of the host's loopback (the drill remote's
 * HTTP, HTTPS or intercept proxy listener). The keeper writes one line first,
 * `crash-drill-relay <port>\n`: the port the sender connected from, inside the namespace.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

const HEADER = /^crash-drill-relay (\d+)\n/;
/** A header longer than this is not one: the connection is dropped. */
const HEADER_MAX = 64;

export interface RelayedConnection {
  /** The sender's port inside the namespace. */
  innerPort: number;
  /** The host loopback port it goes to. */
  port: number;
}

/**
 * Called in the turn the connection's first line arrived, right after the connect() to the host
 * port: the sender still holds its socket inside, so it can be named now (the drill remote's
 * attribution/relayed.ts), and `outbound` is the socket the remote will accept.
 */
export type OnRelayed = (c: RelayedConnection, outbound: Socket) => void;

/** Listens on `path` and passes every connection on to 127.0.0.1:`port`; resolves once it listens. */
export function listenRelay(path: string, port: number, onConnection: OnRelayed): Promise<Server> {
  const server = createServer({ allowHalfOpen: true }, (inner) => relay(inner, port, onConnection));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

function relay(inner: Socket, port: number, onConnection: OnRelayed): void {
  let head = Buffer.alloc(0);
  inner.on('error', () => inner.destroy());
  const onData = (chunk: Buffer): void => {
    head = Buffer.concat([head, chunk]);
    const newline = head.indexOf(0x0a);
    if (newline < 0) {
      if (head.length > HEADER_MAX) inner.destroy();
      return;
    }
    const match = HEADER.exec(head.subarray(0, newline + 1).toString('latin1'));
    if (!match) return void inner.destroy();
    inner.off('data', onData);
    inner.pause();
    const outer = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    onConnection({ innerPort: Number(match[1]), port }, outer);
    outer.on('error', () => {
      outer.destroy();
      inner.destroy();
    });
    inner.on('close', () => outer.destroy());
    outer.on('close', () => inner.destroy());
    const rest = head.subarray(newline + 1);
    if (rest.length > 0) outer.write(rest);
    // pipe() ends the other side when one ends: each half-close passes through, as the keeper's does.
    inner.pipe(outer);
    outer.pipe(inner);
  };
  inner.on('data', onData);
}
