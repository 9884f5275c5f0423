/**
 * How real MCP clients start, stop and lose their stdio servers: clients/<name>.ts, a behaviour
 * per version range, each step cited or marked unsourced (types.ts, docs/client-profiles.md).
 */
import { claudeCode } from './clients/claude-code.js';
import { codex } from './clients/codex.js';
import { geminiCli } from './clients/gemini-cli.js';
import { goose } from './clients/goose.js';
import { pythonSdk } from './clients/python-sdk.js';
import { tsSdk } from './clients/ts-sdk.js';
import { vscode } from './clients/vscode.js';
import { zed } from './clients/zed.js';
// The clients read since the first eight: one file each.
import { amazonQ } from './clients/amazon-q.js';
import { claudeCodeReconnect } from './clients/claude-code-reconnect.js';
import { claudeDesktop } from './clients/claude-desktop.js';
import { cline } from './clients/cline.js';
import { clineCli } from './clients/cline-cli.js';
import { continueDev } from './clients/continue.js';
import { cursor } from './clients/cursor.js';
import { opencode } from './clients/opencode.js';
import { rooCode } from './clients/roo-code.js';
import { DEFAULT_PROFILE, PROFILE_NAMES, type ProfileName, type ProfileRef } from './names.js';
import type { ClientBehaviour, ClientProfile, StepName, StopStep } from './types.js';
import { refOf, resolveProfile } from './versions.js';

export * from './names.js';
export * from './types.js';
export { describeRange, resolveProfile, type Resolution } from './versions.js';

export const CLIENT_PROFILES: Readonly<Record<ProfileName, ClientProfile>> = {
  'ts-sdk': tsSdk,
  'python-sdk': pythonSdk,
  codex,
  'gemini-cli': geminiCli,
  vscode,
  zed,
  goose,
  'claude-code': claudeCode,
  cline,
  'cline-cli': clineCli,
  'roo-code': rooCode,
  continue: continueDev,
  opencode,
  'amazon-q': amazonQ,
  'claude-code-reconnect': claudeCodeReconnect,
  'claude-desktop': claudeDesktop,
  cursor,
};

/** Every behaviour's canonical ref, each profile's newest first: what a drill can name. */
export const PROFILE_REFS: readonly ProfileRef[] = PROFILE_NAMES.flatMap((name) =>
  CLIENT_PROFILES[name].behaviours.map((b) => refOf(CLIENT_PROFILES[name], b)),
);

/** `--client-profile` and a config's `client-profiles`: the canonical ref, or a usage message naming what was expected. */
export function parseProfile(text: string): { ok: true; ref: ProfileRef } | { ok: false; message: string } {
  const resolved = resolveProfile(text, CLIENT_PROFILES);
  return resolved.ok ? { ok: true, ref: resolved.ref } : resolved;
}

/**
 * The behaviour a ref names. A ref that no longer resolves (a log written when another range was
 * read) falls back to the profile's newest: the log's own `client-profile` event says what ran.
 */
export function behaviourOf(ref: ProfileRef | undefined): ClientBehaviour {
  const resolved = resolveProfile(ref ?? DEFAULT_PROFILE, CLIENT_PROFILES);
  if (resolved.ok) return resolved.behaviour;
  const name = (ref ?? DEFAULT_PROFILE).split('@')[0] as ProfileName;
  return (CLIENT_PROFILES[name] ?? CLIENT_PROFILES[DEFAULT_PROFILE]).behaviours[0];
}

/** The steps of a profile a drill in `mode` uses: spawn and env always, then what the loss runs. */
export function stepsUsedBy(mode: string): StepName[] {
  const loss: Record<string, StepName[]> = { crash: ['crash'], close: ['stop'], stop: ['stop'], abandon: ['abandon'] };
  return ['spawn', 'env', ...(loss[mode] ?? [])];
}

/** The steps of a behaviour that rest on no source, with what they rest on instead. */
export function unsourcedSteps(behaviour: ClientBehaviour): { step: StepName; rests: string }[] {
  return Object.entries(behaviour.sources).flatMap(([step, source]) => ('unsourced' in source ? [{ step: step as StepName, rests: source.unsourced }] : []));
}

/** The steps a drill in `mode` uses that rest on no source: what its report says its verdict rests on. */
export function unsourcedStepsUsed(behaviour: ClientBehaviour, mode: string): { step: StepName; rests: string }[] {
  const used = stepsUsedBy(mode);
  return unsourcedSteps(behaviour).filter((u) => used.includes(u.step));
}

/**
 * A stop sequence with every wait replaced by `ms` (a scenario's `timeouts.close-wait`), or as
 * read when `ms` is null. The steps and their order stay the client's.
 */
export function withWaits(steps: readonly StopStep[], ms: number | null): StopStep[] {
  return steps.map((step) => (step.kind === 'wait-ms' && ms !== null ? { ...step, ms } : step));
}

/** The longest a stop sequence can take: the sum of its waits. */
export function longestStop(steps: readonly StopStep[]): number {
  return steps.reduce((sum, step) => sum + (step.kind === 'wait-ms' ? step.ms : 0), 0);
}
