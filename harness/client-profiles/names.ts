/** The client profiles' names and how a drill names its profile; a leaf with no facts (reporters load it). */

export const PROFILE_NAMES = [
  'ts-sdk',
  'python-sdk',
  'codex',
  'gemini-cli',
  'vscode',
  'zed',
  'goose',
  'claude-code',
  // The clients users run, read since the first eight (docs/client-profiles.md, "More clients").
  'cline',
  'cline-cli',
  'roo-code',
  'continue',
  'opencode',
  'amazon-q',
  'claude-code-reconnect',
  'claude-desktop',
  'cursor',
] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

/** Today's behaviour of the drill client: the official TypeScript SDK's StdioClientTransport. */
export const DEFAULT_PROFILE: ProfileName = 'ts-sdk';

/**
 * A profile as a drill names it: the bare name for the newest behaviour read (always:
 * harness/client-profiles/versions.ts `resolveProfile`), else `<name>@<range label>`.
 */
export type ProfileRef = ProfileName | `${ProfileName}@${string}`;

/** The profile's name in a ref: `gemini-cli@0.27-0.51` -> `gemini-cli`. */
export function profileNameOf(ref: ProfileRef): ProfileName {
  const at = ref.indexOf('@');
  return (at < 0 ? ref : ref.slice(0, at)) as ProfileName;
}

/** How a drill key names its profile: nothing for the default profile's newest behaviour, else `@<ref>` after the mode. */
export function profileKeySuffix(profile: ProfileRef): string {
  return profile === DEFAULT_PROFILE ? '' : `@${profile}`;
}

/** A drill's profile for a report label: the ref, with the version range drilled when known (`gemini-cli@>=0.52`). */
export function profileLabel(profile: ProfileRef, versions?: string): string {
  const name = profileNameOf(profile);
  return versions ? `${name}@${versions}` : profile;
}
