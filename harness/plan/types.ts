import type { ProfileRef } from '../client-profiles/profiles.js';
import type { KillMode, KillPoint, Scenario } from '../config/index.js';

/** One scenario at one kill point in one kill mode under one client profile: the unit that gets a verdict. */
export interface PlannedDrill {
  /** Position in the full plan (stable across shards and filters). */
  index: number;
  /** `<scenario>/<point>/<mode>`, with `@<profile>` under a profile other than the default: the same drill in every run. */
  key: string;
  scenario: Scenario;
  point: KillPoint;
  mode: KillMode;
  /** The client whose spawn, stop and crash the drill reproduces (harness/client-profiles/). */
  profile: ProfileRef;
}
