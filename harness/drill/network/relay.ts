/**
 * The harness's end of the relay into a loopback-only network (keeper.pl): a unix socket, which
 * another network namespace can reach, passing each connection on to a host loopback port. The
 * keeper writes `crash-drill-relay <port>\n` first: the sender's port inside.
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

/** Called in the turn the first line arrived, while the sender still holds its socket inside (attribution/relayed.ts names it). */
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
