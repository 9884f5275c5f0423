/**
 * A server that died of its own write to a broken pipe after it lost its client: SIGPIPE that
 * nobody sent (own-sigpipe.ts), or an error exit whose stderr names the failed write (Node's
 * unhandled `write EPIPE`, Python's BrokenPipeError, Rust's "failed printing to stdout: Broken
 * pipe"). Its exit says when it wrote, not that it exits on EOF: a server that never exits on
 * EOF dies so at its first log line or notification. The drill keeps the server's stderr read
 * until the exit deadline (harness/drill/client/in-process-client.ts), so only a write to its
 * stdout, or to a pipe of its own, can end it this way before then.
 */
import { diedOfOwnSigpipe } from './own-sigpipe.js';
import type { ServerExit } from './queries.js';
import { eventsOf, type DrillEvidence } from './types.js';

const BROKEN_WRITE = [/.*\bEPIPE\b.*/, /.*BrokenPipeError.*/, /.*Broken pipe.*/i, /.*os error 32.*/];

/** How the server died of a write after `lossAt`, in words with its stderr line; null when it did not. */
export function diedOfBrokenWrite(evidence: DrillEvidence, exit: ServerExit, lossAt: number): { how: string; line: string | null } | null {
  if (diedOfOwnSigpipe(evidence, exit)) return { how: 'SIGPIPE', line: null };
  if (exit.signal !== null || exit.code === 0 || exit.code === null) return null;
  const stderr = eventsOf(evidence, 'subject-stderr')
    .filter((e) => e.t > lossAt && e.t <= exit.t + 1)
    .map((e) => e.text)
    .join('');
  const line = BROKEN_WRITE.map((re) => re.exec(stderr)?.[0]?.trim()).find(Boolean);
  return line ? { how: `code ${exit.code}`, line: line.length > 200 ? `${line.slice(0, 200)}...` : line } : null;
}
