/**
 * The values the reporters use beside harness/results/types.ts, each from a module that loads
 * only constants and pure functions, never the scenario loader (test/layering.test.ts).
 */
export { KILL_MODES, KILL_POINTS } from '../config/types.js';
export { STATEMENT_IDS, STATEMENT_LABELS } from '../config/statements.js';
export { describeStep } from '../containment/step.js';
export { InternalError, UserError } from '../util/errors.js';
export { requirementLine } from '../requirements/requirement.js';
import { DEFAULT_PROFILE, profileLabel, type ProfileRef } from '../client-profiles/names.js';
import type { NotRepeatedDrill } from './types.js';

export { DEFAULT_PROFILE, PROFILE_NAMES, profileLabel } from '../client-profiles/names.js';

/** A drill's mode as reports show it: `stop`, or `stop@<profile>@<range>` under a profile other than the default. */
export function modeLabel(d: { mode: string; clientProfile?: string; clientVersions?: string }): string {
  return d.clientProfile && d.clientProfile !== DEFAULT_PROFILE ? `${d.mode}@${profileLabel(d.clientProfile as ProfileRef, d.clientVersions)}` : d.mode;
}

/** Each distinct note of unsourced profile steps over a run's drills, in the order first seen. */
export function unsourcedNotes(drills: Iterable<Parameters<typeof unsourcedText>[0]>): string[] {
  const seen = new Set<string>();
  for (const d of drills) {
    const text = unsourcedText(d);
    if (text) seen.add(text);
  }
  return [...seen];
}

/** The profile steps a drill used that rest on no source, in one sentence; null when every one is sourced. */
export function unsourcedText(d: {
  clientProfile?: string;
  clientVersions?: string;
  unsourcedSteps?: ReadonlyArray<{ step: string; rests: string }>;
}): string | null {
  if (!d.unsourcedSteps?.length) return null;
  const who = profileLabel((d.clientProfile ?? DEFAULT_PROFILE) as ProfileRef, d.clientVersions);
  return `unsourced client-profile steps used (${who}): ${d.unsourcedSteps.map((u) => `${u.step}: ${u.rests}`).join('; ')}`;
}

/** The one wording every reporter uses for stale baseline entries; `code` marks up the file and flag. */
export function staleAdvice(count: number, file: string, code: (s: string) => string = (s) => s): string {
  return `remove ${count === 1 ? 'it' : 'them'} from ${code(file)}, or run again with ${code('--update-baseline')} to rewrite the file`;
}

/** A statement judged per client profile, in one line: "met under codex, zed; not met under ts-sdk, claude-code". */
export function profilesText(profiles: ReadonlyArray<{ profile: string; versions?: string; status: string; known?: unknown }>): string {
  const by = (status: string) =>
    profiles.filter((p) => p.status === status).map((p) => `${profileLabel(p.profile as ProfileRef, p.versions)}${p.known ? ' (known)' : ''}`);
  return (['met', 'not met', 'not shown'] as const)
    .map((status) => [status, by(status)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([status, names]) => `${status} under ${names.join(', ')}`)
    .join('; ');
}

/** What a reader keeps of a drill that a copy of it needs. */
type Copied = {
  key: string;
  scenario: string;
  clientProfile: ProfileRef;
  mode?: string;
  clientVersions?: string;
  unsourcedSteps?: NotRepeatedDrill['unsourcedSteps'];
};

/**
 * The drills a run left out as not repeated (results.json `notRepeated`), each as a copy of every
 * attempt of the drill that ran in its place, under its own key, scenario and client profile and
 * marked `sameAs`: what a matrix or a table per profile shows in its cell. Entries of older
 * results, which name no scenario, give none. Only the drills an entry names are held, so a
 * spooled run's drills stay on disk.
 */
export function notRepeatedCopies<T extends Copied>(drills: Iterable<T>, notRepeated: readonly NotRepeatedDrill[] = []): (T & { sameAs: string })[] {
  const entries = notRepeated.filter((n) => n.scenario !== undefined && n.clientProfile !== undefined);
  if (entries.length === 0) return [];
  const named = new Set(entries.map((n) => n.sameAs));
  const ran = new Map<string, T[]>();
  for (const d of drills) if (named.has(d.key)) ran.set(d.key, [...(ran.get(d.key) ?? []), d]);
  return entries.flatMap((n) =>
    (ran.get(n.sameAs) ?? []).map((d) => {
      const { clientVersions: _versions, unsourcedSteps: _unsourced, ...rest } = d;
      return {
        ...(rest as T),
        key: n.key,
        scenario: n.scenario!,
        clientProfile: n.clientProfile!,
        ...(n.byEvidence ? { mode: n.byEvidence.mode } : {}),
        ...(n.clientVersions ? { clientVersions: n.clientVersions } : {}),
        ...(n.unsourcedSteps?.length ? { unsourcedSteps: n.unsourcedSteps } : {}),
        sameAs: n.sameAs,
      };
    }),
  );
}
