/**
 * The values the reporters use, beside the types of harness/results/types.ts: the kill points and
 * modes, the statements and their labels, the one rendering of a containment step, the error
 * bases. Each comes from a module that loads nothing at run time but constants and pure functions
 * (config/types.ts, config/statements.ts, the containment step, util/errors.ts), never from the
 * scenario loader (test/layering.test.ts).
 */
export { KILL_MODES, KILL_POINTS } from '../config/types.js';
export { STATEMENT_IDS, STATEMENT_LABELS } from '../config/statements.js';
export { describeStep } from '../containment/step.js';
export { InternalError, UserError } from '../util/errors.js';
export { requirementLine } from '../requirements/requirement.js';
import { DEFAULT_PROFILE } from '../client-profiles/profiles.js';

export { DEFAULT_PROFILE, PROFILE_NAMES } from '../client-profiles/profiles.js';

/**
 * A drill's mode as the reports show it: `stop`, or `stop@codex` under a client profile other
 * than the default, as its key names it (a run of the default profile alone reads as before).
 */
export function modeLabel(d: { mode: string; clientProfile?: string }): string {
  return d.clientProfile && d.clientProfile !== DEFAULT_PROFILE ? `${d.mode}@${d.clientProfile}` : d.mode;
}

/**
 * What to do about stale baseline entries or statements, the one wording every reporter uses:
 * "remove them from crash-drill.baseline.json, or run again with --update-baseline to rewrite the
 * file". `code` marks the file and the flag up as the format shows code.
 */
export function staleAdvice(count: number, file: string, code: (s: string) => string = (s) => s): string {
  return `remove ${count === 1 ? 'it' : 'them'} from ${code(file)}, or run again with ${code('--update-baseline')} to rewrite the file`;
}

/** A statement judged per client profile, in one line: "met under codex, zed; not met under ts-sdk, claude-code". */
export function profilesText(profiles: ReadonlyArray<{ profile: string; status: string; known?: unknown }>): string {
  const by = (status: string) => profiles.filter((p) => p.status === status).map((p) => `${p.profile}${p.known ? ' (known)' : ''}`);
  return (['met', 'not met', 'not shown'] as const)
    .map((status) => [status, by(status)] as const)
    .filter(([, names]) => names.length > 0)
    .map(([status, names]) => `${status} under ${names.join(', ')}`)
    .join('; ');
}
