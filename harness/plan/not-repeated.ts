/**
 * Drills that cannot differ are run once: at `idle` and `pre-dispatch` the target call is never
 * written (docs/design.md, "Kill points"), so the first such drill in plan order runs.
 */
import { envTemplateNames, type KillPoint, type Scenario } from '../config/index.js';
import type { PlannedDrill } from './types.js';

/** The points where the client is killed before the target call is written. */
export const TARGET_NEVER_SENT: readonly KillPoint[] = Object.freeze(['idle', 'pre-dispatch'] as const);

export interface NotRepeated {
  key: string;
  sameAs: string;
}

export interface WithoutRepeats {
  drills: PlannedDrill[];
  notRepeated: NotRepeated[];
}

/** The drills in plan order with each drill that cannot differ from an earlier one left out. */
export function withoutRepeats(drills: readonly PlannedDrill[]): WithoutRepeats {
  const first = new Map<string, string>();
  const kept: PlannedDrill[] = [];
  const notRepeated: NotRepeated[] = [];
  for (const drill of drills) {
    const same = sameDrillKey(drill);
    const had = same === null ? undefined : first.get(same);
    if (had !== undefined) {
      notRepeated.push({ key: drill.key, sameAs: had });
      continue;
    }
    if (same !== null) first.set(same, drill.key);
    kept.push(drill);
  }
  return { drills: kept, notRepeated };
}

/**
 * What decides a drill whose target is never sent, as one string; null when the target can matter.
 * Built by leaving out what cannot change the drill, so a field added to Scenario counts until
 * shown not to (a wrong "same" hides a result; a wrong "different" only runs a drill twice).
 * Left out: names; the drill's own point, mode and profile (in the string); `expectation`
 * (judged per server: harness/expectation/judge.ts); other `subjects`; `child` (read at
 * child-spawned only: harness/drill/executor/child-point.ts); `dir` unless a template reads it;
 * and the target except its `{{env.NAME}}` names (harness/drill/executor/render.ts), or all of
 * it when the retry sends it (harness/drill/executor/retry.ts). @modelcontextprotocol/sdk
 * 1.32.2's `Client.callTool` sends nothing before the call, so nothing else of the target is
 * used before the kill. Cancel drills are never the same: a cancel is of a call in flight.
 */
export function sameDrillKey(drill: PlannedDrill): string | null {
  if (drill.mode === 'cancel' || !TARGET_NEVER_SENT.includes(drill.point)) return null;
  const { scenario } = drill;
  const {
    id: _id,
    description: _description,
    file: _file,
    dir,
    points: _points,
    modes: _modes,
    clientProfiles: _profiles,
    expectation: _expectation,
    subjects: _subjects,
    child: _child,
    subject: { expectation: _own, ...subject },
    target,
    ...rest
  } = scenario;
  const retried = scenario.retry && drill.mode !== 'hang';
  return canonical({
    point: drill.point,
    mode: drill.mode,
    profile: drill.profile,
    subject,
    ...rest,
    targetEnv: target ? envTemplateNames(target.args).sort() : [],
    ...(retried ? { target } : {}),
    ...(dependsOnDir(scenario) ? { dir } : {}),
  });
}

/** Does rendering the scenario read its folder? (Its target too: conservative, and the retry sends it.) */
function dependsOnDir(scenario: Scenario): boolean {
  return /\{\{\s*scenario\.dir\s*\}\}/.test(JSON.stringify(scenario)) || /\{\{/.test(scenario.subject.cwd);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
