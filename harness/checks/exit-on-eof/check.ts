import { lossBeginsWithEof } from '../../evidence/client-signals.js';
import { describeSignal, serverExitOf, serverOf, signalBeforeExit } from '../../evidence/queries.js';
import type { DrillEvidence } from '../../evidence/types.js';
import { diedOfOwnSigpipe, OWN_WRITE } from '../../evidence/own-sigpipe.js';
import { containerServerOf } from '../../evidence/container-queries.js';
import { judgeContainerExit } from './container.js';
import { isNotReached, lossOrUnknown } from '../../evidence/loss.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import type { ExitOnEofData } from './data.js';
import { containerExitCause } from './container-diagnosis.js';
import { serverSlow, serverStayedUp } from './diagnosis.js';
import { exitedBeforeServing } from './exit-cause.js';
import { EXITS_ON_EOF } from '../../requirements/catalog.js';
import { errorLine, firstServed } from '../../evidence/serving.js';

/**
 * exit-on-eof: the server exits within the deadline after losing its client, unsignalled. It
 * applies only where the loss begins with EOF alone (evidence/client-signals.ts): not in `hang`
 * or `abandon`, nor under a profile that signals first.
 */
export const exitOnEof = defineCheck({
  id: 'exit-on-eof',
  requirement: EXITS_ON_EOF,
  matcher: { name: 'toExitOnEof', expects: 'exit on its own when its input closed' },
  applies: (evidence, mode) => evidence.meta.expect.exitOnEof !== null && lossBeginsWithEof(evidence, mode),
  run(evidence: DrillEvidence): Judgement<ExitOnEofData> {
    const deadline = evidence.meta.expect.exitOnEof?.deadline ?? 0;
    const loss = lossOrUnknown(evidence);
    if (isNotReached(loss)) return loss;
    // A server in a container is judged by its container's exit (container.ts).
    const boxed = containerServerOf(evidence);
    if (boxed) return judgeContainerExit(evidence, boxed, loss, deadline);
    const exit = serverExitOf(evidence);
    const spawned = serverOf(evidence);
    if (exit && exit.t < loss.t) {
      return {
        verdict: 'unknown',
        summary: `the server had already exited (code ${exit.code}, signal ${exit.signal}) before its client was lost`,
        data: { exitAt: exit.t, lossAt: loss.t },
      };
    }
    if (!exit) {
      const last = evidence.events[evidence.events.length - 1];
      const watched = Math.round((last?.t ?? loss.t) - loss.t);
      return {
        verdict: 'fail',
        summary: `the server (pid ${spawned?.pid ?? '?'}) did not exit on its own: still running ${watched} ms after losing its client (deadline ${deadline} ms)`,
        data: { lossAt: loss.t, deadlineMs: deadline, exited: false },
      };
    }
    const elapsed = Math.round(exit.t - loss.t);
    // SIGPIPE that nobody sent is the server's own end: it wrote to its closed stdout or stderr.
    const ownWrite = diedOfOwnSigpipe(evidence, exit);
    const how = ownWrite ? `${exit.signal} on ${OWN_WRITE}, its own end` : exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
    const data = {
      lossAt: loss.t,
      exitAt: exit.t,
      elapsedMs: elapsed,
      deadlineMs: deadline,
      code: exit.code,
      signal: exit.signal,
      ...(ownWrite ? { ownWrite: true as const } : {}),
    };
    const sent = signalBeforeExit(evidence, exit.t, exit);
    if (sent) {
      const signalled = describeSignal(sent);
      return {
        verdict: 'fail',
        summary: `the server did not exit on EOF: it was ended by ${signalled} ${elapsed} ms after losing its client`,
        data: { ...data, endedBy: signalled, endedByWho: sent.by },
      };
    }
    // An error exit before the server served one request tests its handshake's failure, not its shutdown (evidence/serving.ts).
    if (((exit.code !== null && exit.code !== 0) || (exit.signal !== null && !ownWrite)) && firstServed(evidence, loss.t) === null) {
      const line = errorLine(evidence, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
      return {
        verdict: 'fail',
        summary: `the server exited with an error before serving (${how}, ${elapsed} ms after losing its client): it had answered no request but server/discover and ping${line ? `; stderr: ${JSON.stringify(line)}` : ''}`,
        data: { ...data, beforeServing: true, ...(line ? { stderrLine: line } : {}) },
      };
    }
    if (exit.t - loss.t > deadline) {
      return { verdict: 'fail', summary: `the server exited ${elapsed} ms after losing its client (${how}); the deadline is ${deadline} ms`, data };
    }
    return { verdict: 'pass', summary: `the server exited ${elapsed} ms after losing its client (${how})`, data };
  },
  // What to change is the drill's diagnosis (harness/checks/exit-on-eof/diagnosis.ts): it depends on
  // what held the server up (a non-daemon thread, a live handle, a busy loop), not on this check.
  details(outcome) {
    const data = dataOf(outcome);
    if ('exited' in data) return [{ label: 'server exit', items: [`none: still running when the drill ended (deadline ${data.deadlineMs} ms)`] }];
    if (!('elapsedMs' in data)) return [];
    const how = 'ownWrite' in data && data.ownWrite ? `${data.signal} on ${OWN_WRITE}` : data.signal ? `signal ${data.signal}` : `code ${data.code}`;
    const by =
      'endedBy' in data && data.endedBy ? `, ended by ${data.endedBy}` : 'beforeServing' in data && data.beforeServing ? ', before it served one request' : '';
    return [{ label: 'server exit', items: [`${how} ${data.elapsedMs} ms after losing its client (deadline ${data.deadlineMs} ms)${by}`] }];
  },
  diagnose(outcome, evidence) {
    // In a container the drill's process is the engine CLI: the container is the server.
    const boxed = containerExitCause(evidence);
    if (boxed) return boxed;
    const data = dataOf(outcome) as {
      elapsedMs?: number;
      deadlineMs?: number;
      endedBy?: string;
      beforeServing?: true;
      brokenWrite?: true;
      stderrLine?: string;
    };
    if (data.beforeServing) return exitedBeforeServing(evidence, data.stderrLine ?? null);
    if (data.elapsedMs !== undefined && data.deadlineMs !== undefined && data.endedBy === undefined)
      return serverSlow(evidence, data.elapsedMs, data.deadlineMs);
    return serverStayedUp(evidence);
  },
});
