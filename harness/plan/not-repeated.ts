/**
 * Drills that cannot differ are run once. At `idle` and `pre-dispatch` the target call is never
 * written to the server (docs/design.md, "Kill points": the client is killed before it sends it),
 * so two scenarios of one server that differ only in their target drill the same thing there:
 * older `crash-drill init` output repeated both points in three modes for every tool, about half
 * of a first run (470 of 912 drills on a real config of two servers with 81 tools). Of such drills, the first
 * in plan order runs and the others are listed as not repeated, with the key of the one that ran.
 */
import { envTemplateNames, type KillPoint, type Scenario } from '../config/index.js';
import type { PlannedDrill } from './types.js';

/** The points where the client is killed before the target call is written. */
export const TARGET_NEVER_SENT: readonly KillPoint[] = Object.freeze(['idle', 'pre-dispatch'] as const);

/** A drill left out of the plan, and the drill of the plan it is the same as. */
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
 * What decides a drill whose target is never sent, as one string; null for a drill whose target
 * can matter. Two drills with the same string start the same server the same way, do the same
 * before the kill, are killed the same way and judged by the same checks with the same options.
 *
 * Built by leaving out of the scenario what cannot change that, so a field added to Scenario
 * later counts until someone shows it cannot matter (a wrong "same" would hide a drill's result;
 * a wrong "different" only runs a drill twice). Left out:
 * - `id`, `description`, `file`: names. (An error's message names the file; its verdict does not
 *   change.)
 * - `points`, `modes`, `clientProfiles`: the drill's own point, mode and profile are in the string.
 * - `expectation` (the scenario's and the subject's): it is judged per server from every drill of
 *   that server (harness/expectation/judge.ts: name, command and args), so the one drill that ran
 *   decides the statements of every scenario of the server; the run takes the declared statements
 *   from the drills before this step (harness/run/run-scenarios.ts).
 * - `subjects`: the other servers of a `subjects:` scenario; the drill's own is `subject`.
 * - `child`: which child the `child-spawned` point waits for (harness/drill/executor/child-point.ts),
 *   read at that point only.
 * - `target`, but not all of it: rendering a drill fills in the templates of the target's args
 *   too (harness/config/templates.ts renderScenario), so an `{{env.NAME}}` that is not set makes
 *   the drill an error, and a set one's value is redacted from its evidence
 *   (harness/drill/executor/render.ts): the names of those variables count. And the recovery
 *   retry sends the target call (harness/drill/executor/retry.ts; it runs when `retry` is on and
 *   the mode is not `hang`), so then the whole target counts. Nothing else of the target is used
 *   before the kill: @modelcontextprotocol/sdk 1.32.2's `Client.callTool` sends no request before
 *   the call (its `isToolTaskRequired` reads the tools a `listTools` cached, and the drill client
 *   lists none before the target), and the new era's session writes the call as it is
 *   (harness/shared/modern-session.ts).
 * - `dir`, unless something resolves against it: `{{scenario.dir}}`, and a templated
 *   `subject.cwd` (resolved against the folder once rendered). Every other path is absolute once
 *   loaded (harness/config/types.ts).
 * Counted, among the rest: the subject's name, command, args, env and cwd; the setup steps; the
 * protocol (a `--protocol` pin included: harness/plan/plan.ts pins it before this step); the
 * timeouts (handshake, point, close-wait, discover decide what a drill reaches before the kill);
 * `expect` (the checks that apply and their deadlines and graces); the record bounds (what is
 * kept of stdout, which stdout-clean counts); `remote` (the checks that apply, revocation, gates,
 * handlers, intercepts); `retry`; `cancel`.
 *
 * `cancel` drills are never the same drill: a cancel is of the target call, which is in flight
 * (and the plan has no cancel drill at these points anyway: harness/plan/plan.ts).
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

/** JSON with every object's keys sorted, so the same values give the same string. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
