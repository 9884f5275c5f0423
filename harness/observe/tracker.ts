/** Follows every process of one drill: samples /proc, admits members (membership.ts), and reports 'new', 'exit', 'reparented' and 'exec'. */
import { EventEmitter } from 'node:events';
import { monoNow } from '../util/clock.js';
import type { DrillCgroup } from './cgroup.js';
import { ObserveError } from './errors.js';
import { pollExit, type ExitObservation } from './exit-watch.js';
import { identityKey, type ProcIdentity } from './identity.js';
import { MembershipScanner, type TrackedProcess } from './membership.js';
import { readStat } from './proc.js';
import { onProcTable, readProcTable, updateProcTable, type ProcTable } from './proc-table.js';
import { blindSpots } from './blind-spots.js';
import type { UnattributedProcess } from './unattributed.js';

export type { TrackedProcess } from './membership.js';
export type { UnattributedProcess } from './unattributed.js';
export type { ExitObservation } from './exit-watch.js';

export type DrillTrackerOptions = {
  drillId: string;
  root: ProcIdentity;
  cgroup?: DrillCgroup | null;
  sampleIntervalMs?: number;
  /** Move members found by other methods into the cgroup, so their later children are caught. Default true with a cgroup. */
  adopt?: boolean;
  /** The drill's holders, child subreapers (harness/drill/holder/holder.pl); the retry's client adds one. */
  subreapers?: ProcIdentity[];
};

export type TrackingInfo = {
  methods: string[];
  cgroup: string | null;
  subreaper: ProcIdentity | null;
  /** Whether the floor is in force (neither cgroup nor subreaper): see observe/unattributed.ts. */
  floor: boolean;
  blindSpots: string[];
};

type TrackerEvents = {
  new: [TrackedProcess];
  exit: [TrackedProcess];
  reparented: [TrackedProcess, number];
  exec: [TrackedProcess];
  unattributed: [UnattributedProcess];
};

export class DrillTracker extends EventEmitter<TrackerEvents> {
  readonly drillId: string;
  readonly root: ProcIdentity;
  readonly cgroup: DrillCgroup | null;
  readonly sampleIntervalMs: number;
  private readonly quietChecks = new Set<() => void>();
  private readonly adopt: boolean;
  private readonly scanner: MembershipScanner;
  private unsubscribe: (() => void) | null = null;
  private lastTableAt = -Infinity;
  private sampleCount = 0;
  private sampleMsTotal = 0;
  private readonly subreaperIds: ProcIdentity[] = [];

  constructor(opts: DrillTrackerOptions) {
    super();
    if (!opts.drillId) throw new ObserveError('OBSERVE_BAD_DRILL_ID', 'DrillTracker needs a non-empty drillId');
    this.drillId = opts.drillId;
    this.root = { pid: opts.root.pid, startTime: opts.root.startTime };
    this.cgroup = opts.cgroup ?? null;
    this.sampleIntervalMs = opts.sampleIntervalMs ?? 20;
    this.adopt = opts.adopt ?? true;
    this.scanner = new MembershipScanner(this.drillId, this.root);
    for (const id of opts.subreapers ?? []) this.addSubreaper(id);
    const stat = readStat(this.root.pid);
    const now = monoNow();
    if (stat !== null && stat.startTime === this.root.startTime) {
      this.scanner.admit(stat, ['root'], now);
      // The harness should move the root in right after spawning it; if it did not, do it now.
      if (this.cgroup && this.adopt && !this.cgroup.pids().includes(this.root.pid)) this.cgroup.addPid(this.root);
    } else {
      // The root died before tracking began: keep it as an exited member so reports show it.
      this.scanner.admit(
        { pid: this.root.pid, comm: '', state: 'X', ppid: 0, pgid: 0, sid: 0, flags: 0, cpuTicks: 0, startTime: this.root.startTime, exitCode: 0 },
        ['root'],
        now,
      );
    }
  }

  start(): this {
    if (this.unsubscribe) return this;
    this.sampleNow();
    this.unsubscribe = onProcTable(
      this.sampleIntervalMs,
      (table) => this.sampleFrom(table),
      () => this.scanner.watched(),
    );
    return this;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** The drill is over: stop sampling and remove its cgroup; false while a process is still inside (the kernel removes only an empty one). */
  close(): boolean {
    this.stop();
    return this.cgroup ? this.cgroup.remove() : true;
  }

  /** A holder whose orphans belong to this drill (the recovery retry's client has its own). */
  addSubreaper(id: ProcIdentity): void {
    this.subreaperIds.push({ pid: id.pid, startTime: id.startTime });
    this.scanner.addSubreaper(id);
  }

  /** The floor applies with no cgroup and no holder alive. */
  floorActive(): boolean {
    return this.cgroup === null && !this.scanner.subreaperAlive();
  }

  sampleNow(): TrackedProcess[] {
    return this.sampleFrom(readProcTable());
  }

  /**
   * One synchronous sample of only what can make or end a member (new pids, live members and
   * holders), for the child-spawned point's fast poll: a full read is mostly processes outside the drill.
   */
  sampleNew(): TrackedProcess[] {
    return this.sampleFrom(updateProcTable(new Set(this.scanner.watched())));
  }

  /** One sample of a table read at table.at (the shared tick's, or a fresh one). */
  private sampleFrom(table: ProcTable): TrackedProcess[] {
    // Never step back (an older table would show a newer member as gone), never scan one table twice.
    if (table.at <= this.lastTableAt) return this.live();
    this.lastTableAt = table.at;
    const t0 = monoNow();
    const cgroupPids = this.cgroup ? new Set(this.cgroup.pids()) : null;
    const { added, exited, reparented, execed, unattributed } = this.scanner.scan(table, { cgroupPids, floor: this.floorActive() });
    if (this.cgroup && this.adopt) {
      for (const p of added) if (p.exitedAt === null && !cgroupPids?.has(p.pid)) this.cgroup.addPid(p);
    }
    this.sampleCount++;
    this.sampleMsTotal += monoNow() - t0;
    for (const p of added) this.emit('new', { ...p });
    // One first seen already dead (born and exited between samples) gets both events.
    for (const p of [...added.filter((a) => a.exitedAt !== null), ...exited]) this.emit('exit', { ...p });
    for (const [p, from] of reparented) this.emit('reparented', { ...p }, from);
    // A member first read between its fork and its exec carried its parent's argv: say what it runs now.
    for (const p of execed) this.emit('exec', { ...p, cmdline: [...p.cmdline] });
    for (const p of unattributed) this.emit('unattributed', { ...p, cmdline: [...p.cmdline] });
    return this.live();
  }

  members(): TrackedProcess[] {
    return this.scanner.members().map((p) => ({ ...p, foundBy: [...p.foundBy], cmdline: [...p.cmdline] }));
  }

  live(): TrackedProcess[] {
    return this.members().filter((p) => p.exitedAt === null);
  }

  sampleStats(): { samples: number; meanMs: number } {
    return { samples: this.sampleCount, meanMs: this.sampleCount ? this.sampleMsTotal / this.sampleCount : 0 };
  }

  async watchExit(id: ProcIdentity, opts: { intervalMs?: number } = {}): Promise<ExitObservation> {
    const seen = await pollExit(id, { intervalMs: opts.intervalMs ?? 2 });
    const obs = seen as ExitObservation;
    const member = this.scanner.get(id);
    if (member && member.exitedAt === null) {
      member.exitedAt = obs.t;
      if (obs.exitStatus) member.exitStatus = obs.exitStatus;
      this.emit('exit', { ...member });
    } else if (member && obs.exitStatus && !member.exitStatus) {
      member.exitStatus = obs.exitStatus;
    }
    return obs;
  }

  /** True as soon as no live member remains (other than the excluded), false at the timeout. */
  async waitForQuiet(opts: { exclude?: ProcIdentity[]; timeoutMs: number }): Promise<boolean> {
    const excluded = new Set((opts.exclude ?? []).map(identityKey));
    const quiet = (): boolean => this.sampleNow().every((p) => excluded.has(identityKey(p)));
    if (quiet()) return true;
    const deadline = monoNow() + opts.timeoutMs;
    return new Promise<boolean>((resolve) => {
      let done = false;
      const finish = (value: boolean): void => {
        if (done) return;
        done = true;
        stopPoll();
        clearTimeout(limit);
        unsubscribe();
        resolve(value);
      };
      const settle = (live: TrackedProcess[]): void => {
        if (live.every((p) => excluded.has(identityKey(p)))) finish(true);
        else if (monoNow() >= deadline) finish(false);
      };
      const check = (): void => settle(this.sampleNow());
      const stopPoll = onProcTable(
        this.sampleIntervalMs,
        (table) => {
          if (!done) settle(this.sampleFrom(table));
        },
        () => this.scanner.watched(),
      );
      const limit = setTimeout(() => finish(quiet()), opts.timeoutMs);
      // The cgroup's empty event, or a watched member's exit (recheckQuiet), ends the wait at once.
      const offEmpty = this.cgroup ? this.cgroup.onEmpty(check) : () => {};
      this.quietChecks.add(check);
      const unsubscribe = (): void => {
        offEmpty();
        this.quietChecks.delete(check);
      };
    });
  }

  /** A member may just have exited: a pending waitForQuiet looks now, not at the next shared tick. */
  recheckQuiet(): void {
    for (const check of [...this.quietChecks]) check();
  }

  tracking(): TrackingInfo {
    const methods = ['parent-links', 'env-marker', 'process-group', 'session'];
    const subreaper = this.scanner.subreaperAlive() ? (this.subreaperIds[0] ?? null) : null;
    if (subreaper) methods.push('subreaper');
    if (this.cgroup) methods.push('cgroup');
    return {
      methods,
      cgroup: this.cgroup?.path ?? null,
      subreaper,
      floor: this.floorActive(),
      blindSpots: blindSpots({ cgroup: this.cgroup !== null, subreaper: subreaper !== null, sampleIntervalMs: this.sampleIntervalMs }),
    };
  }
}
