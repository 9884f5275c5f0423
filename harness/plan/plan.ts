import type { KillMode, KillPoint, Scenario } from '../config/index.js';
import type { PlannedDrill } from '../drill/types.js';

export interface PlanFilter {
  points?: KillPoint[];
  modes?: KillMode[];
  /** Scenario ids to keep. */
  only?: string[];
}

/**
 * Every scenario × its points × its modes, in file order. Each drill keeps its index in the
 * full, unfiltered plan, so the same drill has the same id suffix whatever the filters.
 */
export function planDrills(scenarios: Scenario[], filter: PlanFilter = {}): PlannedDrill[] {
  const all: PlannedDrill[] = [];
  for (const scenario of scenarios) {
    for (const point of scenario.points) {
      for (const mode of scenario.modes) {
        all.push({ index: all.length, key: `${scenario.id}/${point}/${mode}`, scenario, point, mode });
      }
    }
  }
  return all.filter(
    (drill) =>
      (!filter.points?.length || filter.points.includes(drill.point)) &&
      (!filter.modes?.length || filter.modes.includes(drill.mode)) &&
      (!filter.only?.length || filter.only.includes(drill.scenario.id)),
  );
}
