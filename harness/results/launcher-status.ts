/**
 * The server's exit status read from its launcher's, when the server's own could not be read: its
 * parent in the chain (sh, npm exec, uv) reaped it before the observer caught its zombie, and
 * only the parent read the status. Launchers exit with their child's status: a code as it is,
 * a signal N as code 128 + N (`sh -c`, POSIX "Exit Status"; `npm exec` passes sh's code on,
 * measured with npx 10: a child's exit 3 gives 3, its SIGTERM 143, its SIGKILL 137; uv does the
 * same). So a code of 128 + N reads as signal N: a server that itself exits with such a code is
 * read as signalled, the one ambiguity of this evidence.
 *
 * The launcher counts only when it exited after the server (it waited for it) and of a code: a
 * launcher killed by a signal, or one that exited before the server, says nothing of the server.
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
