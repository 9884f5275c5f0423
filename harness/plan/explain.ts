/** The plan's left-outs in words, one line per scenario and reason, and why a plan is empty (NoDrillsError). */
import type { Scenario } from '../config/index.js';
import type { LeftOut, Plan, PlanFilter } from './plan.js';

/** `<scenario>: <reason> (<point>/<mode>, ...)`, one line per scenario and reason, in plan order. */
export function leftOutLines(leftOut: readonly LeftOut[]): string[] {
  const groups = new Map<string, { scenario: string; reason: string; pairs: string[] }>();
  for (const l of leftOut) {
    const id = `${l.scenario}\u0000${l.reason}`;
    const group = groups.get(id) ?? { scenario: l.scenario, reason: l.reason, pairs: [] };
    group.pairs.push(`${l.point}/${l.mode}`);
    groups.set(id, group);
  }
  return [...groups.values()].map((g) => `${g.scenario}: ${g.reason} (${g.pairs.join(', ')})`);
}

/** What chose or kept the drills, as the filter names them: `modes cancel; only a, b`. */
function choices(filter: PlanFilter): string {
  const parts = [
    filter.points?.length ? `points ${filter.points.join(', ')}` : '',
    filter.modes?.length ? `modes ${filter.modes.join(', ')}` : '',
    filter.clientProfiles?.length ? `client profiles ${filter.clientProfiles.join(', ')}` : '',
    filter.only?.length ? `only ${filter.only.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : "the scenarios' own points and modes";
}

/** Why a plan holds no drill: a line that says what chose it, and one line per scenario that gave none. */
export function whyNoDrills(scenarios: readonly Scenario[], filter: PlanFilter, plan: Plan): { summary: string; reasons: string[] } {
  const summary =
    scenarios.length === 0
      ? 'no drill to run: no scenario was given'
      : `no drill to run (${choices(filter)}): the plan of ${scenarios.length} scenario${scenarios.length === 1 ? '' : 's'} is empty`;
  const notKept = scenarios.filter((s) => filter.only?.length && !filter.only.includes(s.id)).map((s) => `${s.id}: not among only's ids`);
  return { summary, reasons: [...leftOutLines(plan.leftOut), ...notKept] };
}
