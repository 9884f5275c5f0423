/**
 * Run and drill ids: what every drill process carries in its environment (membership.ts,
 * CRASH_DRILL_RUN=<drill id>) and what the run registry (harness/run/runs.ts) files runs under.
 */
import { randomBytes } from 'node:crypto';

/** cd-YYYYMMDDTHHMMSS-xxxxxx (UTC, six random hex digits). */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `cd-${stamp}-${randomBytes(3).toString('hex')}`;
}

export function drillIdFor(runId: string, index: number): string {
  return `${runId}.${index}`;
}

/** The run of a drill id: everything before the last '.'. */
export function runIdOf(drillId: string): string {
  const dot = drillId.lastIndexOf('.');
  return dot < 0 ? drillId : drillId.slice(0, dot);
}
