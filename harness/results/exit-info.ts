import { clientSignalsTo } from '../evidence/client-signals.js';
import { describeSignal, serverExitOf, serverOf, signalBeforeExit } from '../evidence/queries.js';
import { diedOfOwnSigpipe, OWN_WRITE } from '../evidence/own-sigpipe.js';
import { eventsOf, firstOf, type DrillEvidence } from '../evidence/types.js';
import { containerExitInfo } from './containers.js';
import { statusFromLauncher } from './launcher-status.js';
import { didNotExit, type ExitClass, type ExitInfo } from './exit-info-types.js';

/** A stack trace in stderr around an abnormal exit: Node's unhandled 'error' (EPIPE), a Python traceback, a Go or Rust panic. */
const CRASH_LINES = [
  /Error: (write )?EPIPE.*/,
  /BrokenPipeError.*/,
  /.*Unhandled 'error' event.*/,
  /Traceback \(most recent call last\):/,
  /panic: .*/,
  // Rust 1.95 names the thread and its id: "thread 'main' (14591) panicked at ...".
  /thread '.*'(?: \(\d+\))? panicked.*/,
  /Uncaught \w*Error.*/,
];

const STDERR_TAIL_CHARS = 2000;

export function exitInfo(evidence: DrillEvidence): ExitInfo | null {
  const spawned = serverOf(evidence);
  if (!spawned) return null;
  const stderr = eventsOf(evidence, 'subject-stderr')
    .map((e) => e.text)
    .join('');
  const stderrTail = stderr.slice(-STDERR_TAIL_CHARS);
  // A server in a container: its container's exit, and the engine CLI as the launcher (containers.ts).
  const boxed = containerExitInfo(evidence, stderrTail);
  if (boxed) return boxed;
  const real = firstOf(evidence, 'real-server');
  const launcher = real ? { pid: real.wrapper.pid, command: [evidence.meta.subject.command, ...evidence.meta.subject.args].join(' ') } : null;
  const exit = serverExitOf(evidence);
  const loss = firstOf(evidence, 'client-lost');
  if (!exit) {
    return didNotExit(spawned.pid, stderrTail, launcher);
  }
  // The server's own status; else its launcher's, which mirrors it (launcher-status.ts).
  const own = exit.code !== null || exit.signal !== null;
  const mirrored = own ? null : statusFromLauncher(evidence, exit);
  const { code, signal } = mirrored ?? exit;
  const statusFrom = own ? 'server' : mirrored ? 'launcher' : null;
  // The most telling line first: the EPIPE itself rather than Node's generic "Unhandled 'error' event".
  const crashLine = CRASH_LINES.map((re) => re.exec(stderr)?.[0]?.trim()).find(Boolean) ?? null;
  const signalFrom = signal ? signalSender(evidence, exit.t, exit, signal) : null;
  let cls: ExitClass;
  if (signalFrom === OWN_WRITE) cls = 'broken-pipe';
  else if (signal) cls = 'signal';
  else if (code === null) cls = 'unknown';
  else if (code !== 0 && crashLine) cls = 'crash';
  else cls = code === 0 ? 'clean' : 'exit-code';
  return {
    pid: exit.pid,
    code,
    signal,
    class: cls,
    signalFrom,
    endedAfter: ((sent) => (sent ? describeSignal(sent) : null))(signalBeforeExit(evidence, exit.t, exit)),
    afterLossMs: loss ? Math.round(exit.t - loss.t) : null,
    crash: cls === 'crash' ? crashLine : null,
    stderrTail,
    launcher,
    statusFrom,
  };
}

function signalSender(evidence: DrillEvidence, exitAt: number, server: { pid: number; startTime: number }, signal: string): ExitInfo['signalFrom'] {
  const byHarness = eventsOf(evidence, 'signal').some(
    (e) => e.pid === server.pid && e.startTime === server.startTime && e.signal === signal && e.result === 'sent' && e.t <= exitAt + 1,
  );
  if (byHarness) return 'harness';
  // The client's stop sequence, or the parent-death signal of its death, reached this process (by identity).
  if (clientSignalsTo(evidence, server, exitAt + 1).some((s) => s.signal === signal)) return 'client';
  if (diedOfOwnSigpipe(evidence, { pid: server.pid, startTime: server.startTime, t: exitAt, signal })) return OWN_WRITE;
  return 'not the harness or the client';
}
