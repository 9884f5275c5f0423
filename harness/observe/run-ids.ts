/**
 * Run and drill ids: what every drill process carries in its environment (membership.ts,
 * CRASH_DRILL_RUN=<drill id>) and what the run registry (harness/run/runs.ts) files runs under.
 */
import { randomBytes } from 'node:crypto';
import { identify } from './identity.js';

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

/**
 * The drill marker: every drill's client and server carry CRASH_DRILL_RUN=<drill id>, inherited
 * by every descendant (the env-marker membership, membership.ts). Declared once, here, beside
 * the harness's mark.
 */
export const DRILL_ENV = 'CRASH_DRILL_RUN';

/**
 * Beside the drill marker, every drill process carries its harness's identity,
 * CRASH_DRILL_HARNESS=<pid>:<start time>. A sweep that finds no registration of a run (one
 * registered in a registry it does not read: another CRASH_DRILL_REGISTRY, another
 * XDG_RUNTIME_DIR) asks this instead, and leaves the drill alone while that harness lives:
 * without it, such a run's live drills looked dead, and another harness ended them mid-drill.
 */
export const HARNESS_ENV = 'CRASH_DRILL_HARNESS';

/** The mark for a harness with this identity. */
export function harnessMark(id: { pid: number; startTime: number }): string {
  return `${id.pid}:${id.startTime}`;
}

/** The identity a mark names, or null when it is not one. */
export function parseHarnessMark(mark: string | undefined): { pid: number; startTime: number } | null {
  const m = /^([1-9]\d*):(\d+)$/.exec(mark ?? '');
  return m ? { pid: Number(m[1]), startTime: Number(m[2]) } : null;
}

let own: string | undefined;
/** This process's mark, for the drill processes it starts: { CRASH_DRILL_HARNESS: <pid>:<start time> }. */
export function ownHarnessEnv(): Record<string, string> {
  own ??= harnessMark(identify(process.pid) ?? { pid: process.pid, startTime: 0 });
  return { [HARNESS_ENV]: own };
}
