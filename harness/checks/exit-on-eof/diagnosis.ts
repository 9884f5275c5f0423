/**
 * Why the server did not exit on EOF in time, from /proc at the deadline (`diagnosis-facts`):
 * stdin read to the end?, what still runs (threads, event loop, children), the SDK's behaviour. Pure.
 */
import { diedOfOwnSigpipe, OWN_WRITE } from '../../evidence/own-sigpipe.js';
import { clientSignalsTo, eofSentBy } from '../../evidence/client-signals.js';
import { describeSignal, firstSignalAt, serverExitOf, serverOf, signalBeforeExit } from '../../evidence/queries.js';
import { eventsOf, firstOf, type DrillEvidence, type ProcessFacts } from '../../evidence/types.js';
import type { Cause } from '../types.js';
import { callInFlightAtLoss, type SdkFinding, sdkCase, sdkFinding } from './sdk.js';

/** The server's facts closest to the deadline: at the deadline, else at the snapshot. */
export function serverFacts(evidence: DrillEvidence): { facts: ProcessFacts; label: string; t: number } | null {
  const server = serverOf(evidence);
  if (!server) return null;
  for (const label of ['deadline', 'snapshot'] as const) {
    const event = eventsOf(evidence, 'diagnosis-facts').find((e) => e.label === label);
    // A zombie has exited: its threads and files say nothing any more.
    const facts = event?.processes.find((p) => p.pid === server.pid && (server.startTime === null || p.startTime === server.startTime) && p.state !== 'Z');
    if (facts && event) return { facts, label, t: event.t };
  }
  return null;
}

/** Threads grouped by where they wait, the main thread (tid = pid) first: `main (node) S in do_epoll_wait; 9 S in futex_do_wait`. */
function threadLine(f: ProcessFacts): string {
  const main = f.threads.find((t) => t.tid === f.pid);
  const groups = new Map<string, number>();
  for (const t of f.threads) {
    if (t === main) continue;
    const key = `${t.comm} ${t.state}${t.wchan ? ` in ${t.wchan}` : ''}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const shown = [
    ...(main ? [`main (${main.comm}) ${main.state}${main.wchan ? ` in ${main.wchan}` : ''}`] : []),
    ...[...groups].map(([key, n]) => `${n} ${key}`),
  ].join('; ');
  return `${f.threadCount} thread${f.threadCount === 1 ? '' : 's'}: ${shown}${f.threadCount > f.threads.length ? `; ${f.threadCount - f.threads.length} more` : ''}`;
}

/** What the server wrote on stderr after losing its client and before `until`: a sign it reacted to the loss. */
export function stderrAfterLoss(evidence: DrillEvidence, until: number): string | null {
  const lost = firstOf(evidence, 'client-lost');
  if (!lost) return null;
  const text = eventsOf(evidence, 'subject-stderr')
    .filter((e) => e.t > lost.t && e.t <= until)
    .map((e) => e.text)
    .join('')
    .trim();
  if (text === '') return null;
  const lines = text.split('\n');
  const shown = lines.slice(0, 2).join(' | ');
  return shown.length > 160 ? `${shown.slice(0, 160)}...` : shown;
}

/** `eof`: whether the client had closed the server's stdin by then (harness/evidence/client-signals.ts eofSentBy). */
function stdinLine(f: ProcessFacts, eof: boolean): string {
  if (f.stdin.kind === null) return 'stdin (fd 0) closed: the server closed its input';
  if (f.stdin.polled) return `stdin (fd 0, a ${f.stdin.kind}) still open and still polled by its event loop: it has not read the end of its input`;
  if (f.stdin.readingThreads > 0) return `stdin (fd 0, a ${f.stdin.kind}) open; ${f.stdin.readingThreads} thread(s) blocked reading a ${f.stdin.kind}`;
  if (!eof)
    return `stdin (fd 0, a ${f.stdin.kind}) open, neither polled nor read by a thread in a way /proc shows; no EOF had been sent (the client kept its end open)`;
  return `stdin (fd 0, ${f.stdin.kind}) open but no longer polled or read: the server read its input to the end (EOF reached it)`;
}

function loopLine(f: ProcessFacts): string {
  if (!f.eventLoop) return 'no event loop (no epoll instance)';
  const timers = f.timerfds > 0 ? `, ${f.timerfds} timerfd` : '';
  return `an event loop (epoll) watching ${f.polledOther} other fd${f.polledOther === 1 ? '' : 's'}${timers}; timers of Node and asyncio are not visible in /proc`;
}

/** The main thread: the first one, whose tid is the pid. */
function mainThread(f: ProcessFacts) {
  return f.threads.find((t) => t.tid === f.pid) ?? f.threads[0];
}

function waitingForThread(f: ProcessFacts): boolean {
  const main = mainThread(f);
  return !f.eventLoop && f.threadCount > 1 && main !== undefined && /futex/.test(main.wchan) && f.stdin.readingThreads === 0 && !f.stdin.polled;
}

export function factsLines(f: ProcessFacts, label: string, eof = true): string[] {
  const kids = f.children.length > 0 ? [`${f.children.length} live child${f.children.length === 1 ? '' : 'ren'}: pid ${f.children.join(', ')}`] : [];
  return [
    `at the ${label === 'deadline' ? 'exit deadline' : 'snapshot'}, pid ${f.pid} (state ${f.state}): ${stdinLine(f, eof)}`,
    loopLine(f),
    threadLine(f),
    ...(Object.keys(f.fdKinds).length > 0
      ? [
          `open fds: ${Object.entries(f.fdKinds)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([kind, n]) => `${n} ${kind}`)
            .join(', ')}`,
        ]
      : []),
    ...kids,
  ];
}

/** Forced containment: the server outlived SIGTERM and only SIGKILL ended it. */
function ignoredSigterm(evidence: DrillEvidence, pid: number): boolean {
  return eventsOf(evidence, 'containment').some((e) => e.records.some((r) => r.pid === pid && r.forced));
}

function pythonThreadCause(f: ProcessFacts, sdk: SdkFinding): Cause['cause'] {
  const others = f.threads.filter((t) => t.tid !== f.pid).map((t) => `${t.tid}${t.wchan ? ` in ${t.wchan}` : ''}`);
  return `the interpreter waits for a non-daemon thread: the SDK's stdio transport read EOF and run() returned (no event loop, no thread reads stdin), but the main thread is blocked at shutdown (${mainThread(f)?.wchan}) joining ${f.threadCount - 1} other thread${f.threadCount === 2 ? '' : 's'} (${others.join(', ')})${sdk.family === null ? '' : ''}`;
}

/** The cause of a server that was still running (or ended only by a signal) at the deadline. */
export function serverStayedUp(evidence: DrillEvidence): Cause {
  const sdk = sdkFinding(evidence);
  const server = serverOf(evidence);
  const found = serverFacts(evidence);
  const exit = serverExitOf(evidence);
  const lost = firstOf(evidence, 'client-lost');
  const sent = exit && server?.startTime != null ? signalBeforeExit(evidence, exit.t, { pid: server.pid, startTime: server.startTime }) : null;
  const ended = exit ? `; it ended ${Math.round(exit.t - (lost?.t ?? exit.t))} ms after the loss${sent ? ` by ${describeSignal(sent)}` : ' on its own'}` : '';
  // SIGTERM did not end it: the client's shutdown or containment had to send SIGKILL.
  const sigterm = (server && ignoredSigterm(evidence, server.pid)) || sent?.signal === 'SIGKILL';
  const sigtermFix = sigterm ? '; and let SIGTERM end it (its handler must exit, not only log): only SIGKILL did' : '';
  const deadlineAt = (lost?.t ?? 0) + (evidence.meta.expect.exitOnEof?.deadline ?? 2000);
  const eof = eofSentBy(evidence, found?.t ?? deadlineAt);
  const observed = [
    ...(found ? factsLines(found.facts, found.label, eof) : ['no /proc facts of the server were recorded at the deadline']),
    `SDK: ${sdk.line}`,
  ];
  if (sigterm) observed.push('it outlived SIGTERM: only SIGKILL ended it');
  const inFlight = callInFlightAtLoss(evidence);
  if (inFlight) observed.push('a call was in flight when the client was lost (written, not answered)');
  const known = sdkCase(sdk, inFlight ? 'in-flight' : 'keeps-alive').known ?? sdk.known;
  // No EOF was sent (abandon, hang, a stop of signals only): nothing here is about EOF.
  if (!eof) return { ...noEofCause(evidence, ended, sigtermFix), observed, sdk: known };
  // The SDKs of other languages: what the SDK does at EOF decides the cause and the fix (sdk-facts.ts).
  const native = nativeSdkCause(sdk, inFlight, ended, sigtermFix);
  if (native) return { ...native, observed, sdk: known };
  if (!found) {
    return { cause: `the server kept running after EOF${ended}`, observed, sdk: known, fix: genericFix(sdk) + sigtermFix };
  }
  const f = found.facts;
  const lostT = lost?.t ?? 0;
  const deadline = evidence.meta.expect.exitOnEof?.deadline ?? 2000;
  // Only what it wrote before any signal reached it: a SIGTERM handler's log line (the client's
  // stop sequence may signal at the deadline itself) is no reaction to EOF.
  const signalled = server ? firstSignalAt(evidence, server) : null;
  const reacted = stderrAfterLoss(evidence, Math.min(lostT + deadline, signalled ?? Number.POSITIVE_INFINITY));
  if (reacted) observed.push(`between the loss and the deadline it wrote on stderr: ${JSON.stringify(reacted)}`);
  if (waitingForThread(f)) {
    return {
      cause: pythonThreadCause(f, sdk) + ended,
      observed,
      sdk: known,
      fix: `the interpreter waits for a non-daemon thread: make it a daemon (threading.Thread(..., daemon=True)), or stop it and join it with a deadline when run() returns${sigtermFix}`,
    };
  }
  if (f.stdin.polled) {
    const busy = mainThread(f)?.state === 'R';
    return {
      cause: `the server never read the end of its input: stdin is still polled${busy ? ' and its main thread is running (state R): a busy loop keeps it from reading' : ''}${ended}`,
      observed,
      sdk: known,
      fix: busy
        ? `its main thread never returns to the event loop: move the CPU-bound work off it (a worker) so the loop can read stdin's end${sigtermFix}`
        : `read stdin to the end and exit on it${sigtermFix}`,
    };
  }
  if (f.eventLoop && reacted) {
    return {
      cause: `the server reacted to EOF (it wrote on stderr after the loss) but was still shutting down at the ${deadline} ms deadline, its event loop alive${ended}`,
      observed,
      sdk: known,
      fix: `its shutdown on stdin end takes longer than ${deadline} ms: end what it waits for (a delay, a drain, a flush, a child) within the deadline, or, if the wait is intended, raise expect.exit-on-eof.deadline above it${sigtermFix}`,
    };
  }
  if (f.eventLoop && f.stdin.kind !== null && sdk.family === 'ts-sdk-1') {
    return {
      cause: `the server read EOF but nothing acted on it (no exit, nothing on stderr): its stdin is still open, and its event loop stays alive on a live handle (a timer, an interval, a socket or a child: ${f.polledOther} other watched fd${f.polledOther === 1 ? '' : 's'}, ${f.children.length} child${f.children.length === 1 ? '' : 'ren'})${ended}`,
      observed,
      sdk: known,
      fix: `listen for the end of stdin yourself, since the SDK 1.x transport does not (typescript-sdk #2002): process.stdin.on('end', () => server.close().then(() => process.exit(0))), and clear the intervals and timers it started; or move to SDK 2, whose transport closes on stdin end${sigtermFix}`,
    };
  }
  if (f.eventLoop) {
    return {
      cause: `the server read EOF, but its event loop stays alive on a live handle (${f.polledOther} other watched fd${f.polledOther === 1 ? '' : 's'}, ${f.children.length} child${f.children.length === 1 ? '' : 'ren'}; a timer is not visible in /proc)${ended}`,
      observed,
      sdk: known,
      fix: `on stdin end, close what it opened (timers, intervals, sockets, children) or exit explicitly${sigtermFix}`,
    };
  }
  return { cause: `the server kept running after EOF with no event loop${ended}`, observed, sdk: known, fix: genericFix(sdk) + sigtermFix };
}

/** A server that stayed up while its client kept its stdin open: what it was sent, and what would end it. */
function noEofCause(evidence: DrillEvidence, ended: string, sigtermFix: string): Pick<Cause, 'cause' | 'fix'> {
  const mode = evidence.meta.mode;
  const server = serverOf(evidence);
  const signals = server ? clientSignalsTo(evidence, server, Number.POSITIVE_INFINITY).map((s) => s.signal) : [];
  if (signals.length > 0)
    return {
      cause: `the client never closed the server's stdin (its ${mode} sends ${[...new Set(signals)].join(', ')} only), and the server outlived ${signals.length === 1 ? 'that signal' : 'those signals'}${ended}`,
      fix: `exit on ${signals[0]}: end the children it started and exit in its handler (a client that stops this way sends no EOF)${sigtermFix}`,
    };
  return {
    cause: `the client kept the server's stdin open and sent nothing (${mode}): no EOF and no signal reached it, so it kept running${ended}`,
    fix: 'a server can only notice a client that dropped it without closing anything by its silence: shut down after a period with no input (an idle timeout), ending its children',
  };
}

/** A server on go-sdk, mcp-go, rmcp, the Java, Kotlin or C# SDK that stayed up: the SDK's own behaviour names the cause. */
function nativeSdkCause(sdk: SdkFinding, inFlight: boolean, ended: string, sigtermFix: string): Pick<Cause, 'cause' | 'fix'> | null {
  const facts = sdk.facts;
  if (!facts || !['go-sdk', 'mcp-go', 'rmcp', 'java-sdk', 'kotlin-sdk', 'csharp-sdk'].includes(facts.id)) return null;
  const { fix } = sdkCase(sdk, inFlight ? 'in-flight' : 'keeps-alive');
  if (inFlight)
    return {
      cause: `a call was in flight when the client was lost, and the server was still up at the deadline: ${facts.title} ${facts.inFlight ? `does this with a handler in flight at EOF: ${facts.inFlight.text}` : 'waits for it'}; the handler did not return${ended}`,
      fix: `${fix}${sigtermFix}`,
    };
  return {
    cause: `the server kept running after EOF with nothing in flight: ${facts.title}'s run call returns at EOF, so something of the program's own (a thread, a goroutine, a task, a wait in main) keeps the process up${ended}`,
    fix: `${fix}${sigtermFix}`,
  };
}

function genericFix(sdk: SdkFinding): string {
  if (sdk.facts && !['ts-sdk-1', 'ts-sdk-2', 'python-sdk', 'fastmcp'].includes(sdk.facts.id)) return sdk.facts.fix.keepsAlive;
  if (sdk.family === 'ts-sdk-1')
    return "listen for stdin 'end' and exit (the SDK 1.x transport does not, typescript-sdk #2002), ending every timer and child it started";
  if (sdk.family === 'python-sdk' || sdk.family === 'fastmcp') return 'after run() returns, end every thread and child the server started';
  return 'exit when stdin reaches its end, ending every timer, thread and child the server started';
}

/** A server that exited on its own, but after the deadline. */
export function serverSlow(evidence: DrillEvidence, elapsedMs: number, deadlineMs: number): Cause {
  const sdk = sdkFinding(evidence);
  const found = serverFacts(evidence);
  const observed = [...(found ? factsLines(found.facts, found.label) : []), `SDK: ${sdk.line}`];
  const reading = found && !found.facts.stdin.polled && found.facts.stdin.readingThreads === 0;
  // Ended by SIGPIPE that nobody sent: still its own end, on its own late write.
  const exit = serverExitOf(evidence);
  const ownSigpipe = exit !== null && diedOfOwnSigpipe(evidence, exit);
  const how = ownSigpipe && exit ? ` (${exit.signal} on ${OWN_WRITE})` : '';
  const known = sdkCase(sdk, ownSigpipe ? 'write-after-death' : callInFlightAtLoss(evidence) ? 'in-flight' : 'keeps-alive').known ?? sdk.known;
  return {
    cause: `the server exited on its own${how} ${elapsedMs} ms after losing its client, past the ${deadlineMs} ms deadline${reading ? ': it had read EOF by the deadline and was still shutting down' : ''}`,
    observed,
    sdk: known,
    fix: `its shutdown takes ${elapsedMs} ms: end what it waits for at stdin end (a drain, a flush, a timer) within ${deadlineMs} ms, or, if that wait is intended, raise expect.exit-on-eof.deadline above ${elapsedMs} ms`,
  };
}
