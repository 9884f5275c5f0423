import { DEFAULT_PROFILE, profileKeySuffix, type ProfileRef } from '../client-profiles/profiles.js';
import type { KillMode, KillPoint, ProtocolChoice, Scenario } from '../config/index.js';
import { whyNotDrillable } from './drillable.js';
import { type NotRepeated, withoutRepeats } from './not-repeated.js';
import type { PlannedDrill } from './types.js';

export interface PlanFilter {
  /** Chooses the points of every scenario, in place of its own (`--point`). */
  points?: KillPoint[];
  /** Chooses the modes of every scenario, in place of its own (`--mode`). */
  modes?: KillMode[];
  only?: string[];
  /** Overrides every scenario's protocol (`--protocol`). */
  protocol?: ProtocolChoice;
  /** Replaces every scenario's client profiles (`--client-profile`). */
  clientProfiles?: ProfileRef[];
}

/** A point and mode of a scenario that its plan leaves out, and why (harness/plan/drillable.ts). */
export interface LeftOut {
  /** `<scenario>/<point>/<mode>`: the reason holds for each of its subjects and profiles. */
  key: string;
  scenario: string;
  point: KillPoint;
  mode: KillMode;
  reason: string;
  /** The point or mode was chosen, not the scenario's own: the run says so. Impossible pairs of a scenario's own lists are left out silently. */
  chosen: boolean;
}

/** A run's plan: the drills to run, and what the filters kept before drills that cannot differ were left out. */
export interface Plan {
  drills: PlannedDrill[];
  /** Drills the filters kept that are the same drill as one in `drills` (harness/plan/not-repeated.ts). */
  notRepeated: NotRepeated[];
  /** Every drill the filters kept, the not repeated ones included: what the scenarios declared is read from these. */
  filtered: PlannedDrill[];
  /** Drills in the full plan, the chosen ones included: every drill's index is below it. */
  size: number;
  leftOut: LeftOut[];
}

/**
 * Every scenario × points × modes × client profiles, in file order; `points`, `modes` and
 * `clientProfiles` replace the scenario's own lists, and a pair it cannot be drilled as is left
 * out with why. A drill of the scenario's own lists keeps its index in their plan, so its id
 * suffix does not depend on the filters; drills only a choice makes come after. Drills that
 * cannot differ are then left out (not-repeated.ts).
 */
export function planRun(scenarios: Scenario[], filter: PlanFilter = {}): Plan {
  const pointsChosen = Boolean(filter.points?.length);
  const modesChosen = Boolean(filter.modes?.length);
  const own: PlannedDrill[] = [];
  const planned: Array<{ drill: Omit<PlannedDrill, 'index'>; kept: boolean }> = [];
  const leftOut: LeftOut[] = [];
  for (const scenario of scenarios) {
    const kept = !filter.only?.length || filter.only.includes(scenario.id);
    const drillable = (point: KillPoint, mode: KillMode) => whyNotDrillable(scenario, point, mode, { pointChosen: false }) === null;
    for (const drill of drillsOf(scenario, scenario.points, scenario.modes, filter, drillable)) own.push({ ...drill, index: own.length });
    const points = pointsChosen ? [...new Set(filter.points)] : scenario.points;
    const modes = modesChosen ? [...new Set(filter.modes)] : scenario.modes;
    const chosenDrillable = (point: KillPoint, mode: KillMode) => {
      const pointChosen = !scenario.points.includes(point);
      const reason = whyNotDrillable(scenario, point, mode, { pointChosen });
      if (reason && kept) {
        const chosen = pointChosen || !scenario.modes.includes(mode);
        leftOut.push({ key: `${scenario.id}/${point}/${mode}`, scenario: scenario.id, point, mode, reason, chosen });
      }
      return reason === null;
    };
    for (const drill of drillsOf(scenario, points, modes, filter, chosenDrillable)) planned.push({ drill, kept });
  }
  const ownIndex = new Map(own.map((drill) => [drill.key, drill.index]));
  let next = own.length;
  const all = planned.map(({ drill, kept }) => ({ drill: { ...drill, index: ownIndex.get(drill.key) ?? next++ }, kept }));
  const filtered = all.filter(({ kept }) => kept).map(({ drill }) => drill);
  return { ...withoutRepeats(filtered), filtered, size: next, leftOut };
}

/** One scenario's drills at these points in these modes, for each subject and profile, where `drillable` says yes. */
function drillsOf(
  scenario: Scenario,
  points: readonly KillPoint[],
  modes: readonly KillMode[],
  filter: PlanFilter,
  drillable: (point: KillPoint, mode: KillMode) => boolean,
): Omit<PlannedDrill, 'index'>[] {
  const out: Omit<PlannedDrill, 'index'>[] = [];
  const subjects = scenario.subjects?.length ? scenario.subjects : [scenario.subject];
  const pinned = filter.protocol && filter.protocol !== scenario.protocol ? { protocol: filter.protocol } : {};
  const profiles = filter.clientProfiles?.length ? filter.clientProfiles : (scenario.clientProfiles ?? [DEFAULT_PROFILE]);
  const pairs = points.flatMap((point) => modes.filter((mode) => drillable(point, mode)).map((mode) => [point, mode] as const));
  for (const subject of subjects) {
    const forSubject = subjects.length > 1 || pinned.protocol ? { ...scenario, ...pinned, subject } : scenario;
    const prefix = subjects.length > 1 ? `${scenario.id}/${subject.name}` : scenario.id;
    for (const [point, mode] of pairs)
      for (const profile of profiles) out.push({ key: `${prefix}/${point}/${mode}${profileKeySuffix(profile)}`, scenario: forSubject, point, mode, profile });
  }
  return out;
}

export function planDrills(scenarios: Scenario[], filter: PlanFilter = {}): PlannedDrill[] {
  return planRun(scenarios, filter).drills;
}
