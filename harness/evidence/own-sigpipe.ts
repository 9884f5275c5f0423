/**
 * A server ended by SIGPIPE that nobody sent: it wrote to a pipe with no reader (its stdout or
 * stderr after its client died) and the kernel answered that write with SIGPIPE (pipe(7):
 * "If all file descriptors referring to the read end of a pipe have been closed, then a write(2)
 * will cause a SIGPIPE signal to be generated for the calling process"). A Go program dies of it
 * on fd 1 and 2 unless it handles SIGPIPE (os/signal package docs, "SIGPIPE"; os/file_unix.go
 * epipecheck), a C program always unless it ignores it. The harness never sends SIGPIPE and the
 * client's shutdown sends only SIGTERM and SIGKILL, so a SIGPIPE exit that no recorded signal
 * accounts for is the server's own end, on its own write: it exited on its own.
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
