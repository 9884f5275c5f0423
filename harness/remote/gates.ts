import { RemoteError } from './errors.js';
import type { GateAction, GateHit, GatePoint, RouteMatch } from './types.js';

export interface GateSpec {
  drillId: string;
  point: GatePoint;
  /** Default: the first write of the drill. */
  match?: RouteMatch;
}

export type GateState = 'armed' | 'held' | 'released' | 'disarmed';

export interface Gate {
  readonly id: string;
  readonly drillId: string;
  readonly point: GatePoint;
  readonly state: GateState;
  /** Resolves when a matching request is held; rejects (REMOTE_CLOSED) if the remote closes first. */
  readonly reached: Promise<GateHit>;
  /** Lets the held request go on: proceed (default), fail (503), or drop the connection. */
  release(action?: GateAction): void;
  /** Un-arms a gate that was not reached; returns false if it already held something. */
  disarm(): boolean;
}

/** What the pipeline needs to know about a request to pick a gate. */
export interface GateCandidate {
  drillId?: string;
  write: boolean;
  matches(match: RouteMatch): boolean;
}

class ArmedGate implements Gate {
  state: GateState = 'armed';
  readonly reached: Promise<GateHit>;
  private resolveReached!: (hit: GateHit) => void;
  private rejectReached!: (err: Error) => void;
  private resolveRelease?: (action: GateAction | 'closed') => void;

  constructor(
    readonly id: string,
    private readonly spec: GateSpec,
    private readonly onDisarm: (gate: ArmedGate) => void,
  ) {
    this.reached = new Promise<GateHit>((resolve, reject) => {
      this.resolveReached = resolve;
      this.rejectReached = reject;
    });
    // An engine that never awaits `reached` must not get an unhandled rejection on close.
    this.reached.catch(() => undefined);
  }

  get drillId(): string {
    return this.spec.drillId;
  }

  get point(): GatePoint {
    return this.spec.point;
  }

  selects(c: GateCandidate): boolean {
    if (this.state !== 'armed' || c.drillId !== this.spec.drillId) return false;
    return this.spec.match ? c.matches(this.spec.match) : c.write;
  }

  /** Holds the request: resolves `reached`, then waits for release. */
  hold(hit: GateHit): Promise<GateAction | 'closed'> {
    this.state = 'held';
    const released = new Promise<GateAction | 'closed'>((resolve) => {
      this.resolveRelease = resolve;
    });
    this.resolveReached(hit);
    return released;
  }

  release(action: GateAction = 'proceed'): void {
    if (this.state === 'armed') {
      throw new RemoteError('REMOTE_GATE_NOT_REACHED', `gate ${this.id} (${this.point}) was not reached yet: disarm() it instead`);
    }
    if (this.state !== 'held') {
      throw new RemoteError('REMOTE_GATE_ALREADY_RELEASED', `gate ${this.id} (${this.point}) is ${this.state}`);
    }
    this.state = 'released';
    this.resolveRelease?.(action);
  }

  disarm(): boolean {
    if (this.state !== 'armed') return false;
    this.state = 'disarmed';
    this.onDisarm(this);
    return true;
  }

  /** The remote is closing: a held request is let go as `closed`, an armed gate rejects. */
  close(): void {
    if (this.state === 'held') {
      this.state = 'released';
      this.resolveRelease?.('closed');
    } else if (this.state === 'armed') {
      this.state = 'disarmed';
      this.rejectReached(new RemoteError('REMOTE_CLOSED', `remote closed before gate ${this.id} (${this.point}) was reached`));
    }
  }
}

/** Armed gates; each holds at most one request (the first that matches), then is spent. */
export class ArmedGates {
  private readonly armed: ArmedGate[] = [];
  private readonly all = new Set<ArmedGate>();
  private counter = 0;

  arm(spec: GateSpec): Gate {
    this.counter += 1;
    const gate = new ArmedGate(`g${this.counter}`, spec, (g) => this.remove(g));
    this.armed.push(gate);
    this.all.add(gate);
    return gate;
  }

  /** The first armed gate for this point that selects the request; it is taken (one-shot). */
  take(point: GatePoint, c: GateCandidate): ArmedGate | undefined {
    const gate = this.armed.find((g) => g.point === point && g.selects(c));
    if (gate) this.remove(gate);
    return gate;
  }

  closeAll(): void {
    for (const g of this.all) g.close();
    this.armed.length = 0;
    this.all.clear();
  }

  private remove(gate: ArmedGate): void {
    const i = this.armed.indexOf(gate);
    if (i >= 0) this.armed.splice(i, 1);
  }
}

export type { ArmedGate };
