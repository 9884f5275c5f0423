/**
 * Run and drill ids: what every drill process carries in its environment (membership.ts,
 * CRASH_DRILL_RUN=<drill id>) and what the run registry (harness/registry/registration.ts) files runs under.
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

/**
 * The drill marker: every drill's client and server carry CRASH_DRILL_RUN=<drill id>, inherited
 * by every descendant (the env-marker membership, membership.ts). Declared once, here, beside
 * the harness's mark.
 */
export const DRILL_ENV = 'CRASH_DRILL_RUN';

/**
 * Beside the drill marker, every drill process carries CRASH_DRILL_SUITE when the harness's own
 * environment has it: whoever starts harnesses (a CI job, a test suite) names itself there and so
 * finds its own drill processes among everyone else's on the machine (test/last/no-leftovers.test.ts,
 * .ci/run). The harness never judges or ends anything by it: a sweep goes by the run registry.
 */
export const SUITE_ENV = 'CRASH_DRILL_SUITE';

/** { CRASH_DRILL_SUITE } as the harness has it, for the drill processes it starts; empty when unset. */
export function suiteEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const suite = env[SUITE_ENV];
  return suite ? { [SUITE_ENV]: suite } : {};
}
