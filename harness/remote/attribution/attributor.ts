import type { Socket } from 'node:net';
import { identify } from '../../observe/index.js';
import { DRILL_ENV } from '../../observe/index.js';
import { readEnviron } from '../../observe/index.js';
import { clientSocketInode } from './proc-net-tcp.js';
import type { Attribution, AttributionMethod } from './attribution.js';
import { RelayedConnections } from './relayed.js';
import { candidateHolding, findOtherOwner } from './socket-owner.js';

export type { Attribution, AttributionMethod };

export type CandidateSource = () => readonly number[];

/**
 * Names the process at the other end of each accepted loopback connection (port → inode → pid),
 * synchronously on 'connection', while the sender surely holds its socket.
 */
export class Attributor {
  private readonly cache = new WeakMap<Socket, Promise<Attribution>>();
  /** The same attributions by ports while open: a TLS request arrives on the TLSSocket wrapping the accepted socket. */
  private readonly byPorts = new Map<string, Promise<Attribution>>();
  private readonly candidates = new Map<string, CandidateSource>();

  constructor(
    private readonly serverPort: number,
    /** Connections from a drill's loopback-only network, named where they were relayed (relayed.ts). */
    readonly relayed = new RelayedConnections(),
  ) {}

  setCandidates(drillId: string, source: CandidateSource | undefined): void {
    if (source) this.candidates.set(drillId, source);
    else this.candidates.delete(drillId);
  }

  /** Starts (or returns) the attribution of a socket; call on 'connection': its synchronous part is what a sender that exits at once leaves. */
  attribute(socket: Socket): Promise<Attribution> {
    const ports = `${socket.localPort}:${socket.remotePort}`;
    let p = this.cache.get(socket) ?? this.byPorts.get(ports);
    if (!p) {
      const started = performance.now();
      p = this.resolve(socket)
        .catch((): Attribution => ({ method: 'none', costMs: 0 }))
        .then((a) => ({ ...a, costMs: performance.now() - started }));
      this.cache.set(socket, p);
      if (socket.localPort !== undefined && socket.remotePort !== undefined) {
        const attributed = p;
        this.byPorts.set(ports, attributed);
        socket.once('close', () => {
          if (this.byPorts.get(ports) === attributed) this.byPorts.delete(ports);
        });
      }
    }
    return p;
  }

  /** Synchronous up to its first await: the port, the inode, the candidates and a candidate's identity are read in the caller's turn. */
  private async resolve(socket: Socket): Promise<Attribution> {
    const none: Attribution = { method: 'none', costMs: 0 };
    if (socket.remotePort === undefined) return none;
    const listener = socket.localPort ?? this.serverPort;
    const relayed = this.relayed.known(socket.remotePort, listener);
    if (relayed) return relayed;
    // The port the sender connected to: the plain listener's, the HTTPS listener's or a proxy's.
    const inode = clientSocketInode(socket.remotePort, socket.localPort ?? this.serverPort);
    if (inode === undefined) return none;
    const byPid = this.candidatePids();
    const pids = [...byPid.keys()];
    const candidate = candidateHolding(inode, pids);
    if (candidate !== undefined) {
      const identity = identify(candidate);
      return identity ? { process: identity, method: 'candidate', drillId: byPid.get(candidate), costMs: 0 } : none;
    }
    // A relay's outbound socket is the harness's own: what it carries is named by the relay.
    const inside = await this.relayed.find(socket.remotePort, listener);
    if (inside) return inside;
    const owner = await findOtherOwner(inode, pids);
    if (!owner) return none;
    const found = identify(owner.pid);
    if (!found) return none;
    // The environment marker the harness gives every process of a drill (harness/observe/membership.ts).
    const drillId = readEnviron(owner.pid)?.get(DRILL_ENV);
    return { process: found, method: owner.method, drillId, costMs: 0 };
  }

  /** Each drill's candidate pids, the first drill to name a pid keeping it. */
  private candidatePids(): Map<number, string> {
    const byPid = new Map<number, string>();
    for (const [drillId, source] of this.candidates) {
      let pids: readonly number[] = [];
      try {
        pids = source();
      } catch {
        // A failing candidate source must not break the request; the full scan still runs.
      }
      for (const pid of pids) if (!byPid.has(pid)) byPid.set(pid, drillId);
    }
    return byPid;
  }
}
