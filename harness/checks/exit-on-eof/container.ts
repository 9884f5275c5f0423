import { containerExitOf, containerSnapshotOf, containerStopBefore, shortId } from '../../evidence/container-queries.js';
import { describeSignal, signalBeforeExit } from '../../evidence/queries.js';
import type { DrillEvidence, EvidenceOf } from '../../evidence/types.js';
import type { Judgement } from '../types.js';
import type { ExitOnEofData } from './data.js';

/**
 * exit-on-eof in a container: the server's exit is the container's `die` as the engine reports it,
 * not the CLI's; a harness `docker stop` before it means containment ended it.
 */
export function judgeContainerExit(
  evidence: DrillEvidence,
  server: EvidenceOf<'container-server'>,
  loss: EvidenceOf<'client-lost'>,
  deadline: number,
): Judgement<ExitOnEofData> {
  const container = `container ${shortId(server.container.id)} (${server.container.name}, ${server.container.image})`;
  const exit = containerExitOf(evidence);
  if (!exit) {
    if (containerSnapshotOf(evidence)?.reachable === false) {
      return {
        verdict: 'unknown',
        summary: `the server runs in ${container}, but the container engine could not be reached to see whether it exited`,
        data: {},
      };
    }
    const last = evidence.events[evidence.events.length - 1];
    const watched = Math.round((last?.t ?? loss.t) - loss.t);
    return {
      verdict: 'fail',
      summary: `the server in ${container} did not exit on its own: still running ${watched} ms after losing its client (deadline ${deadline} ms)`,
      data: { lossAt: loss.t, deadlineMs: deadline, exited: false, container: server.container.id },
    };
  }
  if (exit.t < loss.t) {
    return {
      verdict: 'unknown',
      summary: `the server's ${container} had already exited (code ${exit.code}) before its client was lost`,
      data: { exitAt: exit.t, lossAt: loss.t },
    };
  }
  const elapsed = Math.round(exit.t - loss.t);
  const data = { lossAt: loss.t, exitAt: exit.t, elapsedMs: elapsed, deadlineMs: deadline, code: exit.code, signal: null, container: server.container.id };
  const stopped = containerStopBefore(evidence, exit.id, exit.t);
  const sent = server.cli.pid > 0 ? signalBeforeExit(evidence, exit.t, server.cli) : null;
  // The CLI's signal proxy forwards SIGTERM to the container; a SIGKILL of the CLI forwards nothing.
  const forwarded = sent && sent.signal === 'SIGTERM' ? `${describeSignal(sent)}, forwarded by the engine CLI` : null;
  const endedBy = stopped ?? forwarded;
  if (endedBy) {
    return {
      verdict: 'fail',
      summary: `the server in ${container} did not exit on EOF: it was ended by ${endedBy} ${elapsed} ms after losing its client (exit code ${exit.code})`,
      data: { ...data, endedBy },
    };
  }
  if (elapsed > deadline) {
    return {
      verdict: 'fail',
      summary: `the server in ${container} exited ${elapsed} ms after losing its client (exit code ${exit.code}); the deadline is ${deadline} ms`,
      data,
    };
  }
  return { verdict: 'pass', summary: `the server in ${container} exited ${elapsed} ms after losing its client (exit code ${exit.code})`, data };
}
