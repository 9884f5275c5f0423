/**
 * A drill's CPU so far, for the run's scheduler (harness/run/scheduler.ts): a drill that uses
 * almost none while it starts or exits gives its CPU slot back. With a drill cgroup it is the
 * cgroup's cpu.stat (exited processes included); without one, the utime + stime of the drill's
 * tracked processes, each counted up to its last reading, so a launcher that exits does not make
 * the sum go down. Beside it, whether one of them is runnable (state R) now: a drill starved of
 * CPU by the load beside it uses little too, and is not idle.
 */
import { clockTicksPerSecond, type DrillCgroup, type DrillTracker, identityKey, readStat } from '../../observe/index.js';

/** A drill's CPU so far in ms (all its processes', the client's included), and whether one of them is runnable now. */
export type CpuReading = { cpuMs: number; runnable: boolean };

export function drillCpuMeter(cgroup: DrillCgroup | null, tracker: DrillTracker): () => CpuReading | null {
  const msPerTick = 1000 / clockTicksPerSecond();
  const seen = new Map<string, number>();
  let total = 0;
  return () => {
    let runnable = false;
    for (const p of tracker.live()) {
      const stat = readStat(p.pid);
      if (stat === null || stat.startTime !== p.startTime) continue;
      if (stat.state === 'R') runnable = true;
      if (cgroup !== null) continue; // the cgroup counts its CPU
      const key = identityKey(p);
      const before = seen.get(key) ?? 0;
      if (stat.cpuTicks > before) total += stat.cpuTicks - before;
      seen.set(key, stat.cpuTicks);
    }
    if (cgroup === null) return { cpuMs: total * msPerTick, runnable };
    const usec = cgroup.cpuUsageUsec();
    return usec === null ? null : { cpuMs: usec / 1000, runnable };
  };
}
