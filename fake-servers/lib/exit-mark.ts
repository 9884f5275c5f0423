/**
 * The line every fake server writes to stderr just before it exits by its own decision, so a
 * benchmark can compare the server's own exit time with the moment the harness noticed.
 * Both sides read CLOCK_MONOTONIC (see harness/util/clock.ts), so the numbers compare directly.
 */
import { writeSync } from 'node:fs';
import { monoNow } from '../../harness/util/clock.js';

export const EXIT_MARK_PREFIX = 'crash-drill-fake exit mono=';

/** Parses one stderr line; returns the monotonic ms it carries, or null if it is not the mark. */
export function parseExitMark(line: string): number | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith(EXIT_MARK_PREFIX)) return null;
  const value = Number(trimmed.slice(EXIT_MARK_PREFIX.length));
  return Number.isFinite(value) ? value : null;
}

/**
 * Writes the mark and exits. writeSync on fd 2 rather than process.stderr.write: the line must
 * be out before process.exit() tears the process down, whatever kind of fd stderr is.
 */
export function exitWithMark(code: number): never {
  try {
    writeSync(2, `${EXIT_MARK_PREFIX}${monoNow()}\n`);
  } catch {
    // stderr is gone too (the harness died); exiting matters more than the mark.
  }
  process.exit(code);
}
