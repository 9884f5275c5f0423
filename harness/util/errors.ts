/** Errors and exit codes in one place (docs/design.md, "Exit codes"): `UserError` exits 3, `InternalError` 4. No imports, so every layer can use it. */

export const EXIT = {
  ok: 0,
  /** A drill failed, a log is broken, a drill was flaky; `contain`: SIGKILL was needed or something survived. */
  failed: 1,
  unknown: 2,
  /** `contain`: refused or stopped, nothing was signalled (the same number as `unknown`: no command gives both). */
  refused: 2,
  /** Usage or configuration: a bad flag, file, field, path, variable or reporter. Nothing was run. */
  usage: 3,
  harness: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** 128 + the signal number, as a shell reports a process ended by it. */
export const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

export type Blame = 'user' | 'internal';

/** The base of every error crash-drill throws on purpose. */
export abstract class CrashDrillError extends Error {
  /** Stable, `CRASH_DRILL_<WHAT>` (some families keep their `OBSERVE_`, `REMOTE_`, `PRELOAD_` prefixes). */
  abstract readonly code: string;
  abstract readonly fault: Blame;

  constructor(message?: string, options?: ErrorOptions) {
    super(message, options);
    // A `UsageError` prints as one, not as "Error" (execa's setErrorName).
    this.name = new.target.name;
  }
}

/** An error the user can fix by changing what they typed or wrote, or where they run: exit 3. */
export abstract class UserError extends CrashDrillError {
  readonly fault = 'user' as const;
}

/** Our own failure, or a broken invariant: exit 4. */
export abstract class InternalError extends CrashDrillError {
  readonly fault = 'internal' as const;
}

export class UsageError extends UserError {
  readonly code: string = 'CRASH_DRILL_USAGE';
}

/** An environment variable with a value crash-drill does not take. */
export class EnvVarError extends UserError {
  readonly code = 'CRASH_DRILL_ENV';
  constructor(
    readonly variable: string,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`${variable}: expected ${expected}, got ${JSON.stringify(got)}`);
  }
}

/** A run whose plan holds no drill: exit 1, not 3, so a release gate that asked for a drill never passes without one (`--pass-with-no-drills`). */
export class NoDrillsError extends UserError {
  readonly code = 'CRASH_DRILL_NO_DRILLS';
  constructor(
    message: string,
    /** Why each scenario gave no drill, one line each. */
    readonly reasons: readonly string[],
  ) {
    super(reasons.length > 0 ? `${message}\n\n${reasons.join('\n')}` : message);
  }
}

/**
 * Control flow, not a fault: a wait cut short by SIGINT or SIGTERM, so no `CrashDrillError`
 * (as execa's `DiscardedError`, lib/return/final-error.js); the run ends with the signal's code.
 */
export class Interrupted extends Error {
  constructor() {
    super('the run was interrupted');
    this.name = 'Interrupted';
  }
}

export class HarnessBug extends InternalError {
  readonly code = 'CRASH_DRILL_INTERNAL';
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof CrashDrillError && error.fault === 'user';
}

/** The exit code an error ends a command with: 1 for a run of no drills, 3 for anything else the user can fix, else 4. */
function exitCodeOf(error: unknown): typeof EXIT.failed | typeof EXIT.usage | typeof EXIT.harness {
  if (error instanceof NoDrillsError) return EXIT.failed;
  return isUserError(error) ? EXIT.usage : EXIT.harness;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Out = { write(s: string): unknown };

/** Runs a command and returns its exit code; a user error is printed, anything else propagates (harness/cli/main.ts). */
export async function commandExit(err: Out, command: string | null, body: () => Promise<number> | number): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (!isUserError(error)) throw error;
    err.write(`crash-drill: ${command ? `${command}: ` : ''}${error.message}\n`);
    return exitCodeOf(error);
  }
}

/** What main.ts does with an error no command caught: a user error is one line and exit 3; anything else is our failure, with its stack, exit 4. */
export function reportUncaught(err: Out, error: unknown): number {
  if (isUserError(error)) {
    err.write(`crash-drill: ${error.message}\n`);
    return exitCodeOf(error);
  }
  err.write(`crash-drill: the harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT.harness;
}
