/**
 * The one list of checks. Adding a check: write its file (id, when it applies, run, follow-up,
 * details; see harness/checks/types.ts), add it here, and give it an `expect` option in
 * harness/config if it has one. Nothing else names check ids.
 */
import { aliveAfterCancel } from './alive-after-cancel.js';
import { deniedAfterRevocation } from './denied-after-revocation.js';
import { exitOnEof } from './exit-on-eof.js';
import { idempotentEffects } from './idempotent-effects.js';
import { jobsSettled } from './jobs-settled.js';
import { noSurvivors } from './no-survivors.js';
import { quietAfterLoss } from './quiet-after-loss.js';
import { silentAfterCancel } from './silent-after-cancel.js';
import { stopsAfterCancel } from './stops-after-cancel.js';
import { stdoutClean } from './stdout-clean.js';
import type { Check, CheckOutcome } from './types.js';

/** In the order they run and are reported. */
export const CHECKS = [
  exitOnEof,
  noSurvivors,
  stdoutClean,
  idempotentEffects,
  deniedAfterRevocation,
  quietAfterLoss,
  jobsSettled,
  silentAfterCancel,
  stopsAfterCancel,
  aliveAfterCancel,
] as const;

type Registered = (typeof CHECKS)[number];

export type CheckId = Registered['id'];

/** A check's result in a drill: one member per registered check, with that check's typed data. */
export type CheckResult = Registered extends infer C ? (C extends Check<infer Id, infer D> ? CheckOutcome<Id, D> : never) : never;

export function checkById(id: string): Check | undefined {
  return (CHECKS as readonly Check[]).find((check) => check.id === id);
}
