import type { Socket } from 'node:net';
import { identify, type ProcIdentity } from '../../observe/identity.js';
import { DRILL_ENV } from '../../observe/membership.js';
import { readEnviron } from '../../observe/proc.js';
import type { AttributionMethod } from '../types.js';
import { ProcNetTcp } from './proc-net-tcp.js';
import { findSocketOwner } from './socket-owner.js';

export interface Attribution {
  process?: ProcIdentity;
  method: AttributionMethod;
  /** The drill whose candidate list or CRASH_DRILL_RUN names the process. */
  drillId?: string;
  /** Wall time the lookup took, in ms. */
  costMs: number;
}

export type CandidateSource = () => readonly number[];

/**
 * Names the process at the other end of each accepted loopback connection, once per socket
 * (a keep-alive connection is attributed once). Source port → client socket inode
 * (/proc/net/tcp) → pid holding it (/proc/PID/fd) → (pid, start time).
 */
export class Attributor {
  private readonly cache = new WeakMap<Socket, Promise<Attribution>>();
  private readonly candidates = new Map<string, CandidateSource>();
  private readonly tcp: ProcNetTcp;

  constructor(serverPort: number) {
    this.tcp = new ProcNetTcp(serverPort);
  }

  setCandidates(drillId: string, source: CandidateSource | undefined): void {
    if (source) this.candidates.set(drillId, source);
    else this.candidates.delete(drillId);
  }

  /** Starts (or returns) the attribution of a socket; call on 'connection', while the client surely lives. */
  attribute(socket: Socket): Promise<Attribution> {
    let p = this.cache.get(socket);
    if (!p) {
      const started = performance.now();
      p = this.resolve(socket)
        .catch((): Attribution => ({ method: 'none', costMs: 0 }))
        .then((a) => ({ ...a, costMs: performance.now() - started }));
      this.cache.set(socket, p);
    }
    return p;
  }

  private async resolve(socket: Socket): Promise<Attribution> {
    const none: Attribution = { method: 'none', costMs: 0 };
    if (socket.remotePort === undefined) return none;
    const inode = await this.tcp.lookup(socket.remotePort);
    if (inode === undefined) return none;
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
    const owner = await findSocketOwner(inode, [...byPid.keys()]);
    if (!owner) return none;
    const identity = identify(owner.pid);
    if (!identity) return none;
    // The environment marker the harness gives every process of a drill (harness/observe/membership.ts).
    const drillId = byPid.get(owner.pid) ?? readEnviron(owner.pid)?.get(DRILL_ENV);
    return { process: identity, method: owner.method, drillId, costMs: 0 };
  }
}
