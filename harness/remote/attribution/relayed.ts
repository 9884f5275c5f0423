/** Relayed connections come from the harness's own relay socket, so their sender is named inside the namespace. */
import type { Socket } from 'node:net';
import { identify } from '../../observe/index.js';
import type { Attribution } from './attribution.js';
import { clientSocketInode } from './proc-net-tcp.js';
import { candidateHolding } from './socket-owner.js';

interface Entry {
  attribution: Attribution;
  /** The outbound socket's ports, `local:remote`, once it connected (two sockets to different listeners may share a local port). */
  ports?: string;
  /** Settles when the outbound socket connected or failed. */
  settled: Promise<void>;
}

export class RelayedConnections {
  private readonly entries = new Set<Entry>();

  /** Call right after connect() of the relay's outbound socket to the remote. */
  add(outbound: Socket, attribution: Attribution): void {
    let settle = (): void => {};
    const entry: Entry = { attribution, settled: new Promise<void>((r) => (settle = r)) };
    this.entries.add(entry);
    outbound.once('connect', () => {
      entry.ports = `${outbound.localPort}:${outbound.remotePort}`;
      settle();
    });
    outbound.once('close', () => {
      this.entries.delete(entry);
      settle();
    });
  }

  /** The attribution of the relayed connection from `port` to the listener at `listener`, known now, or undefined. */
  known(port: number, listener: number): Attribution | undefined {
    const ports = `${port}:${listener}`;
    for (const e of this.entries) if (e.ports === ports) return e.attribution;
    return undefined;
  }

  /** The relayed connection's attribution; its 'connect' may come a turn after the accept, so it is waited for. */
  async find(port: number, listener: number): Promise<Attribution | undefined> {
    const now = this.known(port, listener);
    if (now || this.entries.size === 0) return now;
    await Promise.all([...this.entries].map((e) => e.settled));
    return this.known(port, listener);
  }
}

/**
 * Names the sender inside a network namespace, synchronously: its socket by port in the tables
 * `keeperPid` sees, then the first of `candidates` holding it; `method: 'none'` when closed.
 */
export function attributeInside(keeperPid: number, innerPort: number, port: number, candidates: readonly number[], drillId: string): Attribution {
  const inode = clientSocketInode(innerPort, port, keeperPid);
  const pid = inode === undefined ? undefined : candidateHolding(inode, candidates);
  const process = pid === undefined ? null : identify(pid);
  return process ? { process, method: 'candidate', drillId, costMs: 0 } : { method: 'none', costMs: 0 };
}
