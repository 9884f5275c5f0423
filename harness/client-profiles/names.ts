/**
 * The client profiles' names and how a drill names the one it ran under. A leaf: the reporters
 * load it for the mode labels, so it holds no facts.
 */

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
 * A profile as a drill names it: the bare name for the newest behaviour read, or
 * `<name>@<range label>` for an older one (`gemini-cli@0.27-0.51`). Canonical: the newest range
 * is always named by the bare name (harness/client-profiles/versions.ts `resolveProfile`).
 */
export type ProfileRef = ProfileName | `${ProfileName}@${string}`;

/** The profile's name in a ref: `gemini-cli@0.27-0.51` -> `gemini-cli`. */
export function profileNameOf(ref: ProfileRef): ProfileName {
  const at = ref.indexOf('@');
  return (at < 0 ? ref : ref.slice(0, at)) as ProfileName;
}

/**
 * How a drill key names the profile its drill ran under: nothing for the default profile's
 * newest behaviour (the keys of every run before profiles stay as they were), `@<ref>` after
 * the mode otherwise.
 */
export function profileKeySuffix(profile: ProfileRef): string {
  return profile === DEFAULT_PROFILE ? '' : `@${profile}`;
}

/**
 * A drill's profile for a label in a report: the ref, with the version range drilled when it is
 * known (`gemini-cli@>=0.52`), so that a table that says "clean under Gemini CLI" says which.
 */
export function profileLabel(profile: ProfileRef, versions?: string): string {
  const name = profileNameOf(profile);
  return versions ? `${name}@${versions}` : profile;
}
