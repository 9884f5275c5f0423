/**
 * The server's exit status read from its launcher's (sh, npm exec, uv) when the launcher reaped it:
 * a signal N comes as 128 + N (`sh -c`, POSIX "Exit Status"), so 128 + N reads as signal N.
 */
import { constants } from 'node:os';
import { firstOf, type DrillEvidence } from '../evidence/types.js';
import type { ServerExit } from '../evidence/queries.js';

const SHELL_SIGNAL_BASE = 128;
/** Signal numbers to names; the first name of a number (SIGIOT and SIGABRT share one). */
const SIGNAL_NAMES = new Map<number, string>();
for (const [name, n] of Object.entries(constants.signals)) if (!SIGNAL_NAMES.has(n)) SIGNAL_NAMES.set(n, name);

export function statusFromLauncher(evidence: DrillEvidence, exit: ServerExit): { code: number | null; signal: string | null } | null {
  const real = firstOf(evidence, 'real-server');
  if (!real) return null;
  const ended = firstOf(evidence, 'launcher-exit');
  if (!ended || ended.pid !== real.wrapper.pid || ended.startTime !== real.wrapper.startTime) return null;
  if (ended.code === null || ended.signal !== null || ended.t < exit.t) return null;
  const signal = SIGNAL_NAMES.get(ended.code - SHELL_SIGNAL_BASE);
  if (signal !== undefined) return { code: null, signal };
  return { code: ended.code, signal: null };
}
