/**
 * Whether a scenario can be drilled at a point in a mode, and if not, why: the planner leaves such
 * a drill out and the run says why (harness/plan/plan.ts). What each point needs is config's
 * (POINT_NEEDS); a cancel needs a call in flight to cancel (CANCEL_POINTS).
 */
import { CANCEL_POINTS, type KillMode, type KillPoint, POINT_NEEDS, type Scenario } from '../config/index.js';

/**
 * Null when the drill can be run, else the reason, one clause (`cancel needs ...`). The remote is
 * asked of a chosen point only: a scenario that lists `sent` itself may reach the remote by its
 * CRASH_DRILL_REMOTE_URL without a `remote:` section, and is drilled there as written.
 */
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
