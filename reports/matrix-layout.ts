/**
 * The matrix's shape for summary.md and report.html: columns kill point × mode, rows subject ×
 * scenario, and a row per client profile beneath its scenario (as columns they grow too wide).
 */
import { DEFAULT_PROFILE, KILL_MODES, KILL_POINTS, profileLabel } from '../harness/results/constants.js';
import type { ProfileRef } from '../harness/results/types.js';

/** What the matrix reads of a drill. */
export type MatrixDrill = { scenario: string; point: string; mode: string; clientProfile: string; subject: { name: string } };

export interface MatrixRow<T> {
  subject: string;
  scenario: string;
  /** The client profile of the row; the default's when the run has no other. */
  profile: string;
  drills: T[];
}

export interface MatrixLayout<T> {
  points: string[];
  modes: string[];
  /** The point × mode pairs some drill ran, in the order of points, then modes. */
  columns: Array<[point: string, mode: string]>;
  /** True when a row names its client profile: some drill ran under a profile other than the default. */
  profiled: boolean;
  /** In the order first seen; a scenario's profiles follow one another. */
  rows: MatrixRow<T>[];
  /** How many rows each subject × scenario spans (its first row's index → count). */
  spans: Map<number, number>;
}

/** A row's client: the profile with the range of its versions drilled (`gemini-cli@>=0.52`), the default's name alone. */
export function profileOf(d: { clientProfile: string; clientVersions?: string }): string {
  const ref = d.clientProfile;
  return ref === DEFAULT_PROFILE ? ref : profileLabel(ref as ProfileRef, d.clientVersions);
}

/** Kill points in the order a call passes them, modes as declared; anything else (an older run's) follows in the order seen. */
function ordered(values: Iterable<string>, order: readonly string[]): string[] {
  const seen = [...new Set(values)];
  return [...order.filter((v) => seen.includes(v)), ...seen.filter((v) => !order.includes(v))];
}

export function matrixLayout<T extends MatrixDrill>(drills: Iterable<T>): MatrixLayout<T> {
  // Grouped once (in the order first seen), not filtered per row: a 10,000-drill run has 1,250 rows.
  const groups = new Map<string, Map<string, T[]>>();
  const points = new Set<string>();
  const modes = new Set<string>();
  const pairs = new Set<string>();
  let profiled = false;
  for (const d of drills) {
    points.add(d.point);
    modes.add(d.mode);
    pairs.add(`${d.point}\u0000${d.mode}`);
    const profile = profileOf(d);
    if (profile !== DEFAULT_PROFILE) profiled = true;
    const key = `${d.subject.name}\u0000${d.scenario}`;
    const byProfile = groups.get(key) ?? new Map<string, T[]>();
    groups.set(key, byProfile);
    const mine = byProfile.get(profile) ?? [];
    byProfile.set(profile, mine);
    mine.push(d);
  }
  const rows: MatrixRow<T>[] = [];
  const spans = new Map<number, number>();
  for (const byProfile of groups.values()) {
    const all = [...byProfile.values()];
    // Without profiles a scenario is one row, as it was before the client axis.
    const parts = profiled ? [...byProfile] : [[DEFAULT_PROFILE, all.flat()] as const];
    spans.set(rows.length, parts.length);
    for (const [profile, mine] of parts) rows.push({ subject: all[0][0].subject.name, scenario: all[0][0].scenario, profile, drills: mine });
  }
  const byPoint = ordered(points, KILL_POINTS);
  const byMode = ordered(modes, KILL_MODES);
  const columns = byPoint.flatMap((p) => byMode.filter((m) => pairs.has(`${p}\u0000${m}`)).map((m) => [p, m] as [string, string]));
  return { points: byPoint, modes: byMode, columns, profiled, rows, spans };
}

/** A row's drills at one point and mode (several when the run repeats drills). */
export function drillsAt<T extends MatrixDrill>(row: MatrixRow<T>, point: string, mode: string): T[] {
  return row.drills.filter((d) => d.point === point && d.mode === mode);
}
