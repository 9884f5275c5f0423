/** Whether a scenario can be drilled at a point in a mode (POINT_NEEDS, CANCEL_POINTS), and if not, why. */
import { CANCEL_POINTS, type KillMode, type KillPoint, POINT_NEEDS, type Scenario } from '../config/index.js';

/** Null when the drill can run, else why. The remote is asked of a chosen point only: a file listing `sent` is drilled as written. */
export function whyNotDrillable(scenario: Scenario, point: KillPoint, mode: KillMode, { pointChosen }: { pointChosen: boolean }): string | null {
  if (mode === 'cancel' && !scenario.target) return 'cancel needs a target call to cancel, and the scenario has no target';
  if (mode === 'cancel' && !CANCEL_POINTS.includes(point))
    return `cancel needs a call in flight to cancel, and at ${point} there is none (${CANCEL_POINTS.join(', ')} have one)`;
  const needs = POINT_NEEDS[point];
  if (needs.target && !scenario.target) return `${point} is reached through the target call, and the scenario has no target`;
  if (pointChosen && needs.remote && !scenario.remote.declared)
    return `${point} is the drill remote's moment, and the scenario has no remote: section (the server's writes must reach the remote)`;
  return null;
}
