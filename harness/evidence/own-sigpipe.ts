/**
 * A server ended by a SIGPIPE nobody sent: the kernel's answer to its write to a pipe with no
 * reader (pipe(7)), fatal to a Go program on fd 1 and 2 (os/signal docs, "SIGPIPE"; os/file_unix.go
 * epipecheck). The harness never sends SIGPIPE, so such an exit is the server's own end.
 */
import type { ServerExit } from './queries.js';
import { eventsOf, type DrillEvidence } from './types.js';

/** The words reports use for who ended such a server. */
export const OWN_WRITE = 'its own write to a broken pipe' as const;

export function diedOfOwnSigpipe(evidence: DrillEvidence, exit: Pick<ServerExit, 'pid' | 'startTime' | 't' | 'signal'>): boolean {
  if (exit.signal !== 'SIGPIPE') return false;
  // 1 ms absorbs rounding between the signal's and the exit's stamps, as signalBeforeExit does.
  const sent = eventsOf(evidence, 'signal').some(
    (e) => e.pid === exit.pid && e.startTime === exit.startTime && e.signal === 'SIGPIPE' && e.result === 'sent' && e.t <= exit.t + 1,
  );
  return !sent;
}
