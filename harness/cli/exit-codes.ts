/**
 * Every exit code of crash-drill, declared once (docs/design.md, "Exit codes"). No imports, so
 * the results layer (exitCodeFor) can use it too. harness/cli/errors.ts maps user errors to 3.
 */
export const EXIT = {
  /** Every drill passed (or the command did what it was asked). */
  ok: 0,
  /** A drill failed, a log is broken, a drill was flaky. */
  failed: 1,
  /** Some drill is unknown and none failed. */
  unknown: 2,
  /** Usage or configuration: a bad flag, file, field, path or reporter. Nothing was run. */
  usage: 3,
  /** The harness itself failed. */
  harness: 4,
} as const;

/** 128 + the signal number, as a shell reports a process ended by it. */
export const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };
