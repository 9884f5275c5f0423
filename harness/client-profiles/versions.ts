/**
 * `--client-profile <name>[@<version or range>]` to its behaviour: bare is the newest range, a
 * version its range, a label its range; anything else, a version outside all ranges included, is refused.
 */
import { PROFILE_NAMES, type ProfileName, type ProfileRef } from './names.js';
import type { ClientBehaviour, ClientProfile, VersionRange } from './types.js';

const VERSION = /^\d+(\.\d+){0,2}$/;

export type Resolution = { ok: true; ref: ProfileRef; behaviour: ClientBehaviour } | { ok: false; message: string };

function parts(version: string): number[] {
  return version.split('.').map(Number);
}

/** -1, 0, 1 comparing `version` with `bound` on the parts `bound` gives (0.56.3 against 0.56 is 0). */
function compareTo(version: number[], bound: number[]): number {
  for (const [i, b] of bound.entries()) {
    const v = version[i] ?? 0;
    if (v !== b) return v < b ? -1 : 1;
  }
  return 0;
}

/** Whether `version` lies in `range` (never for a range known by commit only). */
export function holds(range: VersionRange, version: string): boolean {
  if (range.first === null || range.last === null) return false;
  const v = parts(version);
  return compareTo(v, parts(range.first)) >= 0 && compareTo(v, parts(range.last)) <= 0;
}

/** A range as a usage message lists it: `>=0.52 (0.52 to 0.56)`, or its label alone. */
export function describeRange(range: VersionRange): string {
  if (range.first === null || range.last === null) return `${range.label} (known by what was read: ${range.since})`;
  return range.first === range.last ? `${range.label} (${range.first})` : `${range.label} (${range.first} to ${range.last})`;
}

/** The canonical ref of a profile's behaviour: the bare name for the newest. */
export function refOf(profile: ClientProfile, behaviour: ClientBehaviour): ProfileRef {
  return behaviour === profile.behaviours[0] ? profile.name : `${profile.name}@${behaviour.versions.label}`;
}

export function resolveProfile(text: string, profiles: Readonly<Record<ProfileName, ClientProfile>>): Resolution {
  const at = text.indexOf('@');
  const name = at < 0 ? text : text.slice(0, at);
  const wanted = at < 0 ? null : text.slice(at + 1);
  if (!(PROFILE_NAMES as readonly string[]).includes(name))
    return { ok: false, message: `unknown client profile "${name}"; expected one of ${PROFILE_NAMES.join(', ')}, each optionally @<version> or @<range>` };
  const profile = profiles[name as ProfileName];
  const read = profile.behaviours.map((b) => describeRange(b.versions)).join(', ');
  if (wanted === null) return { ok: true, ref: profile.name, behaviour: profile.behaviours[0] };
  const byLabel = profile.behaviours.find((b) => b.versions.label === wanted);
  if (byLabel) return { ok: true, ref: refOf(profile, byLabel), behaviour: byLabel };
  if (!VERSION.test(wanted))
    return { ok: false, message: `${text}: expected ${name}@<version> (a version such as 1.2 or 1.2.3) or ${name}@<range>; the ranges read: ${read}` };
  const byVersion = profile.behaviours.find((b) => holds(b.versions, wanted));
  if (byVersion) return { ok: true, ref: refOf(profile, byVersion), behaviour: byVersion };
  return { ok: false, message: `${text}: no behaviour of ${name} was read for version ${wanted}; the ranges read: ${read}` };
}
