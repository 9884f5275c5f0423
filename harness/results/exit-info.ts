import { eventsOf, firstOf, type DrillEvidence } from '../evidence/types.js';

export type ExitClass = 'clean' | 'exit-code' | 'signal' | 'crash' | 'unknown' | 'did-not-exit';

export interface ExitInfo {
  pid: number | null;
  code: number | null;
  signal: string | null;
  class: ExitClass;
  /** For `signal`: who sent it, as far as the evidence shows. */
  signalFrom: 'client' | 'harness' | 'not the harness or the client' | null;
  /** ms from the loss of the client to the exit (negative: it exited before). */
  afterLossMs: number | null;
  /** The line of stderr that shows the crash, e.g. an unhandled EPIPE. */
  crash: string | null;
  stderrTail: string;
}

/**
 * A stack trace in the server's stderr around an abnormal exit: Node's unhandled 'error' (the
 * SDK's StdioServerTransport has no stdout 'error' handler, so a write after the client died
 * throws EPIPE), a Python traceback, a Go or Rust panic.
 */
const CRASH_LINE = /(Error: (write )?EPIPE.*|.*Unhandled 'error' event.*|Traceback \(most recent call last\):|BrokenPipeError.*|panic: .*|thread '.*' panicked.*|Uncaught \w*Error.*)/;

const STDERR_TAIL_CHARS = 2000;

export function exitInfo(evidence: DrillEvidence): ExitInfo | null {
  const spawned = firstOf(evidence, 'subject-spawned');
  if (!spawned) return null;
  const stderr = eventsOf(evidence, 'subject-stderr').map((e) => e.text).join('');
  const stderrTail = stderr.slice(-STDERR_TAIL_CHARS);
  const exit = firstOf(evidence, 'server-exit');
  const loss = firstOf(evidence, 'client-lost');
  if (!exit) {
    return { pid: spawned.pid, code: null, signal: null, class: 'did-not-exit', signalFrom: null, afterLossMs: null, crash: null, stderrTail };
  }
  // The client saw the exit status when it was alive to reap it; otherwise the observer read it from the zombie.
  const byClient = firstOf(evidence, 'subject-exit');
  const code = exit.code ?? byClient?.code ?? null;
  const signal = exit.signal ?? byClient?.signal ?? null;
  const crashLine = CRASH_LINE.exec(stderr)?.[0]?.trim() ?? null;
  let cls: ExitClass;
  if (signal) cls = 'signal';
  else if (code === null) cls = 'unknown';
  else if (code !== 0 && crashLine) cls = 'crash';
  else cls = code === 0 ? 'clean' : 'exit-code';
  return {
    pid: exit.pid,
    code,
    signal,
    class: cls,
    signalFrom: signal ? signalSender(evidence, exit.t, exit.pid, signal) : null,
    afterLossMs: loss ? Math.round(exit.t - loss.t) : null,
    crash: cls === 'crash' ? crashLine : null,
    stderrTail,
  };
}

function signalSender(evidence: DrillEvidence, exitAt: number, pid: number, signal: string): ExitInfo['signalFrom'] {
  const byHarness = eventsOf(evidence, 'signal').some((e) => e.pid === pid && e.signal === signal && e.t <= exitAt + 1);
  if (byHarness) return 'harness';
  const step = signal === 'SIGTERM' ? 'sigterm' : signal === 'SIGKILL' ? 'sigkill' : null;
  if (step && eventsOf(evidence, 'close-step').some((e) => e.step === step && e.t <= exitAt + 1)) return 'client';
  return 'not the harness or the client';
}
