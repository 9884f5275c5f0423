/**
 * The drill's tracker (harness/observe/tracker.ts), with what it sees recorded as evidence on
 * the observer's clock: processes new, exited, re-parented, their argv once it changed (an exec
 * after the fork it was first seen at), and the ones it could not tie to a drill.
 */
import { DrillTracker, startTimeToMono, type DrillCgroup, type ProcIdentity } from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import type { DrillContext } from './types.js';

/** How often the observer samples the process table when the run names no interval (ms). */
const SAMPLE_INTERVAL_MS = 20;

/** A tracker rooted at the client, not yet sampling (extensions add their listeners first). */
export function recordedTracker(ctx: DrillContext, root: ProcIdentity, cgroup: DrillCgroup | null, subreapers: ProcIdentity[]): DrillTracker {
  const { rec } = ctx;
  const tracker = new DrillTracker({ drillId: ctx.drillId, root, cgroup, subreapers, sampleIntervalMs: ctx.opts.sampleIntervalMs ?? SAMPLE_INTERVAL_MS });
  tracker.on('new', (p) =>
    rec.harness(
      {
        type: 'process-new',
        pid: p.pid,
        startTime: p.startTime,
        // When it started, on the drill's clock (its start time, 10 ms resolution): a process seen late was not started late.
        startedAt: Math.round(startTimeToMono(p.startTime)),
        ppid: p.ppid,
        pgid: p.pgid,
        cmdline: p.cmdline,
        foundBy: p.foundBy,
      },
      p.firstSeen,
      'observer',
    ),
  );
  tracker.on('exit', (p) => rec.harness({ type: 'process-exit', pid: p.pid, startTime: p.startTime }, p.exitedAt ?? monoNow(), 'observer'));
  tracker.on('reparented', (p, from) =>
    rec.harness(
      { type: 'process-reparented', pid: p.pid, startTime: p.startTime, from, to: p.ppid, toHolder: subreapers.some((h) => h.pid === p.ppid) },
      monoNow(),
      'observer',
    ),
  );
  tracker.on('exec', (p) => rec.harness({ type: 'process-exec', pid: p.pid, startTime: p.startTime, cmdline: p.cmdline }, monoNow(), 'observer'));
  tracker.on('unattributed', (p) => rec.harness({ type: 'process-unattributed', ...p }, p.firstSeen, 'observer'));
  return tracker;
}
