/**
 * The suite's one wait for a condition it cannot subscribe to (a process appearing, a file
 * written by another process): it polls, with a generous deadline, never a fixed sleep.
 *
 * The order is what, then how, then how long: `until('the helper to exit', () => !isAlive(id))`.
 * The description comes first so that a long probe does not push it out of sight, and the
 * deadline last because most callers keep the default.
 */
import { monoNow } from '../../harness/util/clock.js';

export const UNTIL_DEFAULT_MS = 10_000;
const POLL_MS = 10;

/** Resolves with the first truthy value `probe` returns; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = UNTIL_DEFAULT_MS): Promise<T> {
  const deadline = monoNow() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (monoNow() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
