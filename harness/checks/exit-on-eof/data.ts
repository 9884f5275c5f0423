/** What exit-on-eof records of a drill (its `data`): its own file, shared by the check and its container half (container.ts). */
export type ExitOnEofData =
  /** The server had already exited before the loss: nothing to judge. */
  | { exitAt: number; lossAt: number }
  /** The server was still running at the end of the evidence. */
  | { lossAt: number; deadlineMs: number; exited: false; container?: string }
  /** The server exited: when, how, and the signal that ended it if one did. */
  | {
      lossAt: number;
      exitAt: number;
      elapsedMs: number;
      deadlineMs: number;
      code: number | null;
      signal: string | null;
      /** SIGPIPE on its own write to a pipe nobody reads: it ended on its own (evidence/own-sigpipe.ts). */
      ownWrite?: true;
      /** It exited with an error before it served one request (evidence/serving.ts), and the stderr line that says why. */
      beforeServing?: true;
      stderrLine?: string;
      /** The signal that ended it, in words, and who sent it. */
      endedBy?: string;
      endedByWho?: 'client' | 'harness';
      container?: string;
    };
