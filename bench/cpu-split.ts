/**
 * Where a run's CPU went, measured, not estimated:
 * - the total: this process's own CPU (process.cpuUsage) plus its reaped descendants'
 *   (cutime + cstime of /proc/self/stat). Every process the run started is below this one (the
 *   holders are its children and subreapers of the rest), so once the last child is reaped the
 *   total holds all of it;
 * - each drill's cgroup (the drill-cpu event: the client, the server and what it started) and
 *   the client's own part of it (from its zombie, by the holder); the server is the difference;
 * - the harness process: this process's own CPU (tracking, evidence, scheduler, reporters);
 * - the rest: the holders and any other process the harness started outside a drill's cgroup.
 *   It is the total less the three above, each of which is read, not guessed.
 * Without cgroups there is no drill-cpu event, and the split says it is not available.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { eventsOf, type DrillEvidence } from '../harness/evidence/types.js';
import { clockTicksPerSecond } from '../harness/observe/index.js';

export interface CpuSnapshot {
  /** This process's own CPU, ms (µs resolution). */
  selfMs: number;
  /** Reaped descendants' CPU, ms (clock-tick resolution). */
  childrenMs: number;
}

export interface CpuSplit {
  totalMs: number;
  harnessMs: number;
  /** Null where no drill had a cgroup (unprivileged, no cgroup2): the split is not available. */
  cgroupMs: number | null;
  /** Over the drills whose client's CPU was read. */
  clientMs: number | null;
  serverMs: number | null;
  /** Server and client together, in the drills whose client's CPU could not be read. */
  unsplitMs: number | null;
  /** Holders and other processes outside the drill cgroups: total - harness - cgroups. */
  restMs: number | null;
  /** Drills with a drill-cpu event, and drills whose client's CPU was read. */
  drillsMeasured: number;
  clientsMeasured: number;
  /** Why the split is missing or partial, if it is. */
  note: string | null;
}

export function cpuSnapshot(): CpuSnapshot {
  const { user, system } = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
  const ticks = Number(f[13]) + Number(f[14]);
  return { selfMs: (user + system) / 1000, childrenMs: (ticks / clockTicksPerSecond()) * 1000 };
}

/** This process's children, reaped or not (a zombie is still listed until it is reaped). */
export function childPids(): number[] {
  const out: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    const text = readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim();
    if (text) out.push(...text.split(' ').map(Number));
  }
  return out;
}

/**
 * Resolves once this process has no child left (each reaped, its CPU in cutime), or with the
 * pids still there after `timeoutMs`. Node reaps a child on its SIGCHLD, in the event loop, so
 * this looks again on each turn of a short timer until then.
 */
export async function allReaped(timeoutMs: number): Promise<number[]> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const left = childPids();
    if (left.length === 0 || performance.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The split of a run between two snapshots, with the run's evidence. */
export function cpuSplit(before: CpuSnapshot, after: CpuSnapshot, evidence: readonly DrillEvidence[]): CpuSplit {
  const harnessMs = after.selfMs - before.selfMs;
  const totalMs = harnessMs + after.childrenMs - before.childrenMs;
  let cgroupMs = 0;
  let clientMs = 0;
  let unsplitMs = 0;
  let drillsMeasured = 0;
  let clientsMeasured = 0;
  const unsplit: string[] = [];
  const unmeasured: string[] = [];
  const name = (e: DrillEvidence): string => `${e.meta.scenario}/${e.meta.point}/${e.meta.mode}`;
  for (const e of evidence) {
    const cpu = eventsOf(e, 'drill-cpu')[0];
    if (!cpu) {
      unmeasured.push(name(e));
      continue;
    }
    drillsMeasured++;
    cgroupMs += cpu.cgroupMs;
    if (cpu.clientMs !== null) {
      clientsMeasured++;
      clientMs += cpu.clientMs;
    } else {
      unsplitMs += cpu.cgroupMs;
      unsplit.push(name(e));
    }
  }
  if (drillsMeasured === 0)
    return {
      totalMs,
      harnessMs,
      cgroupMs: null,
      clientMs: null,
      serverMs: null,
      unsplitMs: null,
      restMs: null,
      drillsMeasured,
      clientsMeasured,
      note: 'no drill had a cgroup (unprivileged or no cgroup2): the split is not available',
    };
  const notes: string[] = [];
  if (unmeasured.length > 0) notes.push(`no cgroup figure (no cgroup, or not empty at the end) in ${unmeasured.join(', ')}`);
  if (unsplit.length > 0) notes.push(`a client's own CPU not read in ${unsplit.join(', ')}`);
  return {
    totalMs,
    harnessMs,
    cgroupMs,
    clientMs,
    serverMs: cgroupMs - clientMs - unsplitMs,
    unsplitMs,
    restMs: drillsMeasured === evidence.length ? totalMs - harnessMs - cgroupMs : null,
    drillsMeasured,
    clientsMeasured,
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}
