/**
 * Where the time of one drill goes, read from its evidence timestamps (all CLOCK_MONOTONIC ms),
 * so the overhead figure can be explained and not just stated.
 */
import type { DrillEvidence, EvidenceEvent } from '../harness/evidence/types.js';
import { median } from './stats.js';

export type Phases = Record<string, number>;

/** Consecutive evidence marks; each phase runs from its mark to the next one. */
const DRILL_MARKS: [EvidenceEvent['type'], string][] = [
  ['drill-start', 'drill client process start'],
  ['client-ready', 'server spawn + initialize + setup'],
  ['setup-done', 'target call'],
  ['point-reached', 'kill until quiet (server and helpers gone)'],
  ['snapshot', 'containment + cleanup'],
  ['drill-end', ''],
];

export function drillPhases(evidence: DrillEvidence, wallMs: number): Phases {
  const at = (type: EvidenceEvent['type']): number => evidence.events.find((e) => e.type === type)?.t ?? Number.NaN;
  const phases: Phases = {};
  for (let i = 0; i + 1 < DRILL_MARKS.length; i++) {
    phases[DRILL_MARKS[i][1]] = at(DRILL_MARKS[i + 1][0]) - at(DRILL_MARKS[i][0]);
  }
  phases['runner around the drill (plan, sweep, judge)'] = wallMs - (at('drill-end') - at('drill-start'));
  return phases;
}

/** The median of each phase over several runs, in the order of the first run. */
export function medianPhases(runs: Phases[]): Phases {
  const out: Phases = {};
  for (const name of Object.keys(runs[0] ?? {})) out[name] = median(runs.map((r) => r[name]).filter(Number.isFinite));
  return out;
}
