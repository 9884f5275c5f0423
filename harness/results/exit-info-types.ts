import type { OWN_WRITE } from '../evidence/own-sigpipe.js';

/** `broken-pipe`: SIGPIPE on its own write to a pipe nobody reads (evidence/own-sigpipe.ts): an exit on its own, not a kill. */
export type ExitClass = 'clean' | 'exit-code' | 'signal' | 'broken-pipe' | 'crash' | 'unknown' | 'did-not-exit';

export interface ExitInfo {
  pid: number | null;
  code: number | null;
  signal: string | null;
  class: ExitClass;
  /** For `signal`: who sent it, as far as the evidence shows. */
  signalFrom: 'client' | 'harness' | typeof OWN_WRITE | 'not the harness or the client' | null;
  /** The last signal anyone sent it before it exited, even if it then exited with a code (it handled it). */
  endedAfter: string | null;
  /** ms from the loss of the client to the exit (negative: it exited before). */
  afterLossMs: number | null;
  crash: string | null;
  stderrTail: string;
  /** When the subject was started through a launcher (npx, sh -c, ...): the launcher's pid and command. */
  launcher: { pid: number; command: string } | null;
  /** Whose exit status was read: the server's own, or its launcher's (results/launcher-status.ts); null: none. */
  statusFrom: 'server' | 'launcher' | null;
}

/** The exit of a server still running when the drill ended: no status, nothing read. */
export function didNotExit(pid: ExitInfo['pid'], stderrTail: string, launcher: ExitInfo['launcher']): ExitInfo {
  return {
    pid,
    code: null,
    signal: null,
    class: 'did-not-exit',
    signalFrom: null,
    endedAfter: null,
    afterLossMs: null,
    crash: null,
    stderrTail,
    launcher,
    statusFrom: null,
  };
}
