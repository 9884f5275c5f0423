import type { KillMode, KillPoint, Scenario } from '../config/index.js';

/** One scenario at one kill point in one kill mode: the unit that gets a verdict. */
export interface PlannedDrill {
  /** Position in the full plan (stable across shards and filters). */
  index: number;
  /** `<scenario>/<point>/<mode>`: the same drill in every run. */
  key: string;
  scenario: Scenario;
  point: KillPoint;
  mode: KillMode;
}
