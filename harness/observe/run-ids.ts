/** Run and drill ids: every drill process carries one in CRASH_DRILL_RUN, and the run registry files runs under them. */
import { randomBytes } from 'node:crypto';

/** cd-YYYYMMDDTHHMMSS-xxxxxx (UTC, six random hex digits). */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `cd-${stamp}-${randomBytes(3).toString('hex')}`;
}

export function drillIdFor(runId: string, index: number): string {
  return `${runId}.${index}`;
}

export function runIdOf(drillId: string): string {
  const dot = drillId.lastIndexOf('.');
  return dot < 0 ? drillId : drillId.slice(0, dot);
}

/** The drill marker, CRASH_DRILL_RUN=<drill id>, inherited by every descendant (env-marker membership). */
export const DRILL_ENV = 'CRASH_DRILL_RUN';

/** CRASH_DRILL_SUITE, passed on from the harness's environment, lets whoever starts harnesses find its drill processes (test/last/no-leftovers.test.ts). */
export const SUITE_ENV = 'CRASH_DRILL_SUITE';

/** { CRASH_DRILL_SUITE } as the harness has it, for the drill processes it starts; empty when unset. */
export function suiteEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const suite = env[SUITE_ENV];
  return suite ? { [SUITE_ENV]: suite } : {};
}
