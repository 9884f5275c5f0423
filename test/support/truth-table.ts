/**
 * A run's drills keyed like a confusion matrix's truth table: `scenario/point/mode` to the drill's
 * verdict and each check's verdict, with any columns a matrix adds of its own (the era). Every
 * matrix compares with `toEqual` against its expected table, so a drill that is missing, extra,
 * or off by one check shows as one row of the diff.
 */
import type { DrillResult } from '../../harness/results/types.js';

export type VerdictRow = Record<string, string>;

type Drill = Pick<DrillResult, 'scenario' | 'point' | 'mode' | 'verdict' | 'checks'>;

export function verdictTable<D extends Drill>(drills: readonly D[], extra: (drill: D) => VerdictRow = () => ({})): Record<string, VerdictRow> {
  return Object.fromEntries(
    drills.map((d) => [
      `${d.scenario}/${d.point}/${d.mode}`,
      { verdict: d.verdict, ...extra(d), ...Object.fromEntries(d.checks.map((c) => [c.id, c.verdict])) },
    ]),
  );
}
