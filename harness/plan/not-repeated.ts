/**
 * Drills that cannot differ are run once, the first in plan order: drills under client profiles
 * that give them the same inputs (profile-inputs.ts), and at `idle` and `pre-dispatch`, where the
 * target call is never written (docs/design.md, "Kill points"), drills of scenarios that differ
 * only in what is not used before the kill.
 */
import { behaviourOf, type ClientBehaviour, type ProfileRef, profileKeySuffix, type StepName, unsourcedStepsUsed } from '../client-profiles/profiles.js';
import { envTemplateNames, type KillMode, type KillPoint, type Scenario } from '../config/index.js';
import { profileInputs } from './profile-inputs.js';
import type { PlannedDrill } from './types.js';

/** The points where the client is killed before the target call is written. */
export const TARGET_NEVER_SENT: readonly KillPoint[] = Object.freeze(['idle', 'pre-dispatch'] as const);

export interface NotRepeated {
  key: string;
  sameAs: string;
  /** Left out at run time by the evidence of `sameAs`, which ran in another mode (by-evidence.ts): its own mode, and why. */
  byEvidence?: { mode: KillMode; reason: string };
}

/**
 * A drill left out as results.json lists it: with its own scenario and profile, which the drill
 * that ran in its place may not share, so a reader can show it under its own row.
 */
export interface NotRepeatedEntry extends NotRepeated {
  scenario: string;
  clientProfile: ProfileRef;
  /** Its profile's range of versions, as a drill that ran records it (`clientVersions`). */
  clientVersions: string;
  /** The steps of its profile the drill uses that rest on no source: its own, not the drill's that ran. */
  unsourcedSteps?: { step: StepName; rests: string }[];
}

export interface WithoutRepeats {
  drills: PlannedDrill[];
  notRepeated: NotRepeated[];
}

/** A profile's behaviour by its ref (the profiles of harness/client-profiles/; tests give their own). */
export type BehaviourOf = (ref: ProfileRef) => ClientBehaviour;

/** The drills in plan order with each drill that cannot differ from an earlier one left out. */
export function withoutRepeats(drills: readonly PlannedDrill[], behaviour: BehaviourOf = behaviourOf): WithoutRepeats {
  const first = new Map<string, string>();
  const kept: PlannedDrill[] = [];
  const notRepeated: NotRepeated[] = [];
  for (const drill of drills) {
    const same = sameDrillKey(drill, behaviour);
    const had = first.get(same);
    if (had !== undefined) {
      notRepeated.push({ key: drill.key, sameAs: had });
      continue;
    }
    first.set(same, drill.key);
    kept.push(drill);
  }
  return { drills: kept, notRepeated };
}

/** Each drill left out, described from the plan's drills (`filtered` holds them all). */
export function notRepeatedEntries(notRepeated: readonly NotRepeated[], filtered: readonly PlannedDrill[]): NotRepeatedEntry[] {
  const byKey = new Map(filtered.map((d) => [d.key, d]));
  return notRepeated.flatMap(({ key, sameAs, byEvidence }) => {
    const drill = byKey.get(key);
    if (!drill) return [];
    const behaviour = behaviourOf(drill.profile);
    const unsourced = unsourcedStepsUsed(behaviour, drill.mode);
    const entry: NotRepeatedEntry = {
      key,
      sameAs,
      scenario: drill.scenario.id,
      clientProfile: drill.profile,
      clientVersions: behaviour.versions.label,
      ...(unsourced.length > 0 ? { unsourcedSteps: unsourced } : {}),
      ...(byEvidence ? { byEvidence } : {}),
    };
    return [entry];
  });
}

/**
 * What decides a drill, as one string: two drills with the same string are one drill. The profile
 * counts by what the drill reads of it (profile-inputs.ts), so one drill under two clients that
 * spawn and lose a server alike is one drill. Otherwise a drill is its scenario, subject, point
 * and mode (its key less the profile), except where its target is never sent.
 *
 * There the string leaves out what cannot change the drill, so a field added to Scenario counts
 * until shown not to (a wrong "same" hides a result; a wrong "different" only runs a drill twice).
 * Left out: names; the drill's own point, mode and profile inputs (in the string); `expectation`
 * (judged per server: harness/expectation/judge.ts); other `subjects`; `child` (read at
 * child-spawned only: harness/drill/executor/child-point.ts); `dir` unless a template reads it;
 * and the target except its `{{env.NAME}}` names (harness/drill/executor/render.ts), or all of
 * it when the retry sends it (harness/drill/executor/retry.ts). @modelcontextprotocol/sdk
 * 1.32.2's `Client.callTool` sends nothing before the call, so nothing else of the target is
 * used before the kill. Cancel drills of two scenarios are never the same: a cancel is of a call in flight.
 */
export function sameDrillKey(drill: PlannedDrill, behaviour: BehaviourOf = behaviourOf): string {
  const profile = profileInputs(behaviour(drill.profile), drill.mode, drill.scenario);
  if (drill.mode === 'cancel' || !TARGET_NEVER_SENT.includes(drill.point))
    return canonical({ drill: drill.key.slice(0, drill.key.length - profileKeySuffix(drill.profile).length), profile });
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
    profile,
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
