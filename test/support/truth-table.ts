/**
 * A run's drills keyed like a confusion matrix's truth table: `scenario/point/mode` to the drill's
 * verdict and each check's verdict, with any columns a matrix adds of its own (the era). Every
 * matrix compares with `toEqual` against its expected table, so a drill that is missing, extra,
 * or off by one check shows as one row of the diff.
 */
import type { DrillResult } from '../../harness/results/types.js';
import { assertDiagnosesAgree } from './diagnosis-agrees.js';

export type VerdictRow = Record<string, string>;

type Drill = Pick<DrillResult, 'scenario' | 'point' | 'mode' | 'verdict' | 'checks'>;

export interface TableOptions {
  /**
   * Leave an unknown drill's checks out: its point was never reached, so they judge nothing, and
   * the row says only `{ verdict: 'unknown' }`.
   */
  unknownWithoutChecks?: boolean;
}

export function verdictTable<D extends Drill>(
  drills: readonly D[],
  extra: (drill: D) => VerdictRow = () => ({}),
  options: TableOptions = {},
): Record<string, VerdictRow> {
  // Every matrix's drills: no diagnosis may contradict its own drill's evidence (diagnosis-agrees.ts).
  assertDiagnosesAgree(drills.filter((d): d is D & DrillResult => 'incident' in d && 'survivors' in d));
  return Object.fromEntries(
    drills.map((d) => {
      const checks = options.unknownWithoutChecks && d.verdict === 'unknown' ? {} : Object.fromEntries(d.checks.map((c) => [c.id, c.verdict]));
      return [`${d.scenario}/${d.point}/${d.mode}`, { verdict: d.verdict, ...extra(d), ...checks }];
    }),
  );
}

/** The checks every drill that loses its client runs (crash, close), each passing. */
export const LOSS_CHECKS_PASS: Readonly<VerdictRow> = { 'exit-on-eof': 'pass', 'no-survivors': 'pass', 'stdout-clean': 'pass' };

/** The checks a scenario with a drill remote adds (harness/checks/), each passing. */
export const REMOTE_CHECKS_PASS: Readonly<VerdictRow> = {
  'idempotent-effects': 'pass',
  'denied-after-revocation': 'pass',
  'quiet-after-loss': 'pass',
  'jobs-settled': 'pass',
};

/** The row of a crash or close drill with a remote that passes every check. */
export const REMOTE_DRILL_PASS: Readonly<VerdictRow> = { verdict: 'pass', ...LOSS_CHECKS_PASS, ...REMOTE_CHECKS_PASS };
