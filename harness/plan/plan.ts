import { DEFAULT_PROFILE, profileKeySuffix, type ProfileName } from '../client-profiles/profiles.js';
import { CANCEL_POINTS, type KillMode, type KillPoint, type ProtocolChoice, type Scenario } from '../config/index.js';
import { type NotRepeated, withoutRepeats } from './not-repeated.js';
import type { PlannedDrill } from './types.js';

export interface PlanFilter {
  points?: KillPoint[];
  modes?: KillMode[];
  /** Scenario ids to keep. */
  only?: string[];
  /** Overrides every scenario's protocol (the config file's `protocol`, `--protocol`). */
  protocol?: ProtocolChoice;
  /** Replaces every scenario's client profiles (the config file's `clientProfiles`, `--client-profile`). */
  clientProfiles?: ProfileName[];
}

/** A run's plan: the drills to run, and what the filters kept before drills that cannot differ were left out. */
export interface Plan {
  /** The drills to run, in plan order. */
  drills: PlannedDrill[];
  /** Drills the filters kept that are the same drill as one in `drills` (harness/plan/not-repeated.ts). */
  notRepeated: NotRepeated[];
  /** Every drill the filters kept, the not repeated ones included: what the scenarios declared is read from these. */
  filtered: PlannedDrill[];
  /** Drills in the full, unfiltered plan: every drill's index is below it. */
  size: number;
}

/**
 * Every scenario × its points × its modes × its client profiles, in file order. Each drill keeps
 * its index in the full, unfiltered plan, so the same drill has the same id suffix whatever the
 * filters (a run of the default profile alone plans what it planned before profiles). After
 * the filters, a drill that cannot differ from an earlier one is left out (not-repeated.ts).
 */
export function planRun(scenarios: Scenario[], filter: PlanFilter = {}): Plan {
  const all: PlannedDrill[] = [];
  for (const scenario of scenarios) {
    // A scenario naming several subjects drills each of them the same way, side by side.
    const subjects = scenario.subjects?.length ? scenario.subjects : [scenario.subject];
    const pinned = filter.protocol && filter.protocol !== scenario.protocol ? { protocol: filter.protocol } : {};
    const profiles = filter.clientProfiles?.length ? filter.clientProfiles : (scenario.clientProfiles ?? [DEFAULT_PROFILE]);
    for (const subject of subjects) {
      const forSubject = subjects.length > 1 || pinned.protocol ? { ...scenario, ...pinned, subject } : scenario;
      const prefix = subjects.length > 1 ? `${scenario.id}/${subject.name}` : scenario.id;
      for (const point of scenario.points) {
        for (const mode of scenario.modes) {
          // A cancel needs a call in flight: at idle, pre-dispatch and after-response there is none.
          if (mode === 'cancel' && !CANCEL_POINTS.includes(point)) continue;
          for (const profile of profiles)
            all.push({ index: all.length, key: `${prefix}/${point}/${mode}${profileKeySuffix(profile)}`, scenario: forSubject, point, mode, profile });
        }
      }
    }
  }
  const filtered = all.filter(
    (drill) =>
      (!filter.points?.length || filter.points.includes(drill.point)) &&
      (!filter.modes?.length || filter.modes.includes(drill.mode)) &&
      (!filter.only?.length || filter.only.includes(drill.scenario.id)),
  );
  return { ...withoutRepeats(filtered), filtered, size: all.length };
}

/** The drills a run runs (planRun's `drills`). */
export function planDrills(scenarios: Scenario[], filter: PlanFilter = {}): PlannedDrill[] {
  return planRun(scenarios, filter).drills;
}
