/**
 * Phase-aware scheduling: concurrency is limited by what costs CPU, not by drills in flight. A
 * drill costs CPU while it starts, while its server exits after the loss of its client (a
 * runtime's teardown, which the run's own starts must not slow), and while it is contained;
 * between its server's exit and the end of its grace window it only waits, so it holds no CPU
 * slot. A drill is admitted in plan order while fewer than `cpu` drills are in a CPU phase and
 * fewer than `inFlight` run; containment and exit never wait for a slot. The CPU slots are a pool
 * (cpu-pool.ts): the run's own, or one shared with the runs beside it (the survey's servers).
 *
 * A phase is named by events, but what a drill does in it is measured too: a drill whose processes
 * use almost no CPU while it starts or exits (a server that ignores EOF until its deadline, one
 * that sleeps before it exits or before it answers, a remote call held at its gate) is waiting,
 * and gives its slot back. Its meter (the drill cgroup's cpu.stat, or its tracked processes'
 * utime + stime) is read every IDLE_WINDOW_MS while it holds a slot; under IDLE_CPU_SHARE of one
 * core in a window, with none of its processes runnable at the reading (a drill starved by the
 * load beside it uses little CPU too), moves it to `waiting`. Only what runs beside it changes:
 * every verdict comes from the drill's own events.
 */
import { availableParallelism } from 'node:os';
import { type CpuPool, LocalCpuPool } from './cpu-pool.js';
import type { CpuReading } from '../drill/executor/cpu-meter.js';
import { serverToldOfLoss } from '../evidence/client-signals.js';
import type { EvidenceEvent } from '../evidence/types.js';

export type DrillPhase = 'starting' | 'exiting' | 'waiting' | 'containing';

/** Phases that cost CPU: a drill in one of them holds a CPU slot. */
const CPU_PHASES: ReadonlySet<DrillPhase> = new Set(['starting', 'exiting', 'containing']);

/**
 * The phase a drill moves to on `event`, or null. After `kill` a told server exits until its exit
 * is seen, its deadline comes or the grace window ends; the recovery retry costs CPU again.
 */
export function nextPhase(current: DrillPhase, event: EvidenceEvent): DrillPhase | null {
  switch (event.type) {
    case 'drill-start':
    case 'retry':
      return 'starting';
    case 'kill':
      // A cancelled call loses no client; abandon and hang tell the server nothing.
      return event.mode !== 'cancel' && serverToldOfLoss(event.mode) ? 'exiting' : 'waiting';
    case 'retry-end':
      return 'waiting';
    case 'containment-start':
      return 'containing';
    case 'server-exit':
    case 'snapshot':
      return current === 'exiting' ? 'waiting' : null;
    case 'diagnosis-facts':
      return current === 'exiting' && event.label === 'deadline' ? 'waiting' : null;
    default:
      return null;
  }
}

export interface ScheduleLimits {
  /** Drills running at once, whatever their phase (`--concurrency`). */
  inFlight: number;
  /** Drills in a CPU phase at once. */
  cpu: number;
}

/** In flight by default: enough waiting drills to keep the cores busy, few enough that their observers stay cheap. */
export const IN_FLIGHT_PER_CORE = 8;

/** The limits for a run: `concurrency` caps drills in flight; CPU slots are the cores, never more than the cap. */
export function scheduleLimits(concurrency: number | undefined, total: number, cores = availableParallelism()): ScheduleLimits {
  const inFlight = Math.max(1, Math.min(concurrency ?? cores * IN_FLIGHT_PER_CORE, total || 1));
  return { inFlight, cpu: Math.max(1, Math.min(cores, inFlight)) };
}

export type PhaseCounts = Record<DrillPhase, number>;

/** How often a drill holding a CPU slot has its CPU read, in ms. */
export const IDLE_WINDOW_MS = 100;
/** Under this share of one core over a whole window, a starting or exiting drill is waiting. */
export const IDLE_CPU_SHARE = 0.1;
/** The phases a measured drill leaves when idle: containment is short and never waits. */
const MEASURED_PHASES: ReadonlySet<DrillPhase> = new Set(['starting', 'exiting']);

/** A drill's CPU so far (harness/drill/executor/cpu-meter.ts); null when it cannot be read. */
export type CpuMeter = () => CpuReading | null;

/** One admitted drill's hold on the scheduler. */
export interface DrillSlot {
  readonly phase: DrillPhase;
  /** Moves the drill to `phase`; never waits (a phase change is something that already happened). */
  enter(phase: DrillPhase): void;
  /** From now on the drill's CPU is read by `meter`: a window under IDLE_CPU_SHARE moves it to `waiting`, and `onIdle` is called. */
  measure(meter: CpuMeter, onIdle?: () => void): void;
  /** The drill has ended: its slots go to the next drill. */
  release(): void;
}

type Waiter = { resolve: (slot: DrillSlot | null) => void };

export class PhaseScheduler {
  private readonly slots = new Set<Slot>();
  private readonly waiters: Waiter[] = [];
  private listeners: Array<(counts: PhaseCounts) => void> = [];
  /** Most drills that were ever in a CPU phase at once, and in flight at once (for tests and the bench). */
  peak = { cpu: 0, inFlight: 0 };

  private readonly pool: CpuPool;
  private readonly wakeUp = () => this.pump();
  private idleTimer: NodeJS.Timeout | null = null;
  /** Drills moved to `waiting` by their meter (its tests read it). */
  idled = 0;

  /** `pool`: the CPU slots, shared with other runs (cpu-pool.ts); by default the run's own, `limits.cpu` of them. */
  constructor(
    readonly limits: ScheduleLimits,
    pool?: CpuPool,
  ) {
    this.pool = pool ?? new LocalCpuPool(limits.cpu);
  }

  /** Resolves with a slot in the `starting` phase once the limits allow it, or null when aborted first. */
  admit(signal?: AbortSignal): Promise<DrillSlot | null> {
    if (signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) {
          this.waiters.splice(at, 1);
          resolve(null);
        }
      };
      const waiter: Waiter = {
        resolve: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pump();
    });
  }

  counts(): PhaseCounts {
    const counts: PhaseCounts = { starting: 0, exiting: 0, waiting: 0, containing: 0 };
    for (const slot of this.slots) counts[slot.phase]++;
    return counts;
  }

  /** Called with the counts after every change (the console's live status line). */
  onChange(listener: (counts: PhaseCounts) => void): void {
    this.listeners.push(listener);
  }

  private cpuBusy(): number {
    let n = 0;
    for (const slot of this.slots) if (CPU_PHASES.has(slot.phase)) n++;
    return n;
  }

  /** Admits waiting drills, first come first served, while the limits allow: a drill in flight to spare, and a CPU slot of the pool. */
  private pump(): void {
    while (this.waiters.length > 0 && this.slots.size < this.limits.inFlight) {
      if (!this.pool.tryTake()) {
        this.pool.wake(this.wakeUp);
        return;
      }
      const waiter = this.waiters.shift()!;
      const slot = new Slot(this);
      this.slots.add(slot);
      this.changed();
      waiter.resolve(slot);
    }
  }

  /** @internal A slot moved from phase `from` (or was released, in it): the pool counts its CPU slot. */
  moved(slot: Slot, from: DrillPhase, released: boolean): void {
    const was = CPU_PHASES.has(from);
    const is = !released && CPU_PHASES.has(slot.phase);
    if (released) this.slots.delete(slot);
    if (was && !is) this.pool.give();
    else if (!was && is) this.pool.force();
    this.changed();
    this.pump();
    this.watchIdle();
  }

  /** Reads the meters every IDLE_WINDOW_MS while a measured drill holds a slot in a phase it may leave idle. */
  watchIdle(): void {
    const any = [...this.slots].some((slot) => slot.metered());
    if (any && this.idleTimer === null) {
      this.idleTimer = setInterval(() => this.readMeters(), IDLE_WINDOW_MS);
      this.idleTimer.unref();
    } else if (!any && this.idleTimer !== null) {
      clearInterval(this.idleTimer);
      this.idleTimer = null;
    }
  }

  private readMeters(): void {
    const now = performance.now();
    for (const slot of [...this.slots]) {
      if (slot.idleSince(now)) {
        this.idled++;
        slot.enter('waiting');
        slot.onIdle?.();
      }
    }
    this.watchIdle();
  }

  private changed(): void {
    this.peak.cpu = Math.max(this.peak.cpu, this.cpuBusy());
    this.peak.inFlight = Math.max(this.peak.inFlight, this.slots.size);
    const counts = this.counts();
    for (const listener of this.listeners) listener(counts);
  }
}

class Slot implements DrillSlot {
  phase: DrillPhase = 'starting';
  private released = false;
  private meter: CpuMeter | null = null;
  onIdle: (() => void) | undefined;
  /** The meter's last reading in this phase (its CPU ms), and when it was taken. */
  private last: { cpuMs: number; at: number } | null = null;

  constructor(private readonly scheduler: PhaseScheduler) {}

  enter(phase: DrillPhase): void {
    if (this.released || phase === this.phase) return;
    const from = this.phase;
    this.phase = phase;
    this.base();
    this.scheduler.moved(this, from, false);
  }

  measure(meter: CpuMeter, onIdle?: () => void): void {
    if (this.released) return;
    this.meter = meter;
    this.onIdle = onIdle;
    this.base();
    this.scheduler.watchIdle();
  }

  /** The reading a phase's first window starts from: taken as it begins. */
  private base(): void {
    const reading = this.metered() ? this.meter!() : null;
    this.last = reading === null ? null : { cpuMs: reading.cpuMs, at: performance.now() };
  }

  /** @internal Whether its meter is read now: it has one, and holds a slot in a phase it may leave idle. */
  metered(): boolean {
    return !this.released && this.meter !== null && MEASURED_PHASES.has(this.phase);
  }

  /** @internal Reads the meter: whether a whole window since the last reading used under IDLE_CPU_SHARE of a core. */
  idleSince(now: number): boolean {
    if (!this.metered()) return false;
    const reading = this.meter!();
    if (reading === null) return false;
    const { cpuMs } = reading;
    const last = this.last;
    if (last === null || now - last.at < IDLE_WINDOW_MS / 2) {
      if (last === null) this.last = { cpuMs, at: now };
      return false;
    }
    this.last = { cpuMs, at: now };
    return !reading.runnable && cpuMs - last.cpuMs < IDLE_CPU_SHARE * (now - last.at);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.scheduler.moved(this, this.phase, true);
  }
}
