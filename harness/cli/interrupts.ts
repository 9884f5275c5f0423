/**
 * SIGINT and SIGTERM during a command that drills (`run`, `survey`): the first one aborts the
 * signal the command passes down, so no drill starts and the active ones are contained; the
 * command then exits with the signal's code (130, 143). A second one is not acted on again.
 */
import { EXIT, SIGNAL_EXIT } from '../util/errors.js';

export interface Interrupts {
  signal: AbortSignal;
  /** The signal received, or null. */
  caught(): NodeJS.Signals | null;
  /** The exit code of an interrupted command. */
  exitCode(): number;
  /** Stops listening (the command is done). */
  release(): void;
}

export function catchInterrupts(): Interrupts {
  const controller = new AbortController();
  let caught: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (caught) return;
    caught = signal;
    process.stderr.write(`\ncrash-drill: ${signal} received, containing the active drills...\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    caught: () => caught,
    exitCode: () => (caught ? (SIGNAL_EXIT[caught] ?? EXIT.harness) : EXIT.harness),
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
