import type { FaultKind, FaultSpec, RouteMatch } from './types.js';
import type { GateCandidate } from './gates.js';

export interface Fault {
  readonly id: string;
  readonly drillId: string;
  readonly kind: FaultKind;
  /** How many more requests it will apply to. */
  readonly remaining: number;
  clear(): void;
}

class ActiveFault implements Fault {
  remaining: number;

  constructor(
    readonly id: string,
    readonly drillId: string,
    readonly spec: FaultSpec,
    private readonly onClear: (f: ActiveFault) => void,
  ) {
    this.remaining = spec.times ?? 1;
  }

  get kind(): FaultKind {
    return this.spec.kind;
  }

  selects(c: GateCandidate): boolean {
    if (this.remaining <= 0 || c.drillId !== this.drillId) return false;
    return this.spec.match ? c.matches(this.spec.match as RouteMatch) : c.write;
  }

  clear(): void {
    this.remaining = 0;
    this.onClear(this);
  }
}

/** Scripted misbehaviour of the remote, per drill, each for a number of requests. */
export class ActiveFaults {
  private readonly faults: ActiveFault[] = [];
  private counter = 0;

  add(drillId: string, spec: FaultSpec): Fault {
    this.counter += 1;
    const fault = new ActiveFault(`f${this.counter}`, drillId, spec, (f) => this.remove(f));
    this.faults.push(fault);
    return fault;
  }

  /** Consumes one use of the first fault of this kind that selects the request. */
  take(kind: FaultKind, c: GateCandidate): FaultSpec | undefined {
    const fault = this.faults.find((f) => f.kind === kind && f.selects(c));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.remove(fault);
    return fault.spec;
  }

  private remove(f: ActiveFault): void {
    const i = this.faults.indexOf(f);
    if (i >= 0) this.faults.splice(i, 1);
  }
}
