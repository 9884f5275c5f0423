/**
 * The control channel between the harness and the drill client (Node IPC).
 * Events go up, commands go down. Every event carries `t`, a CLOCK_MONOTONIC timestamp in ms
 * taken in the client at the moment the thing happened (see harness/util/clock.ts).
 */

export const CORRELATION_META_KEY = 'dev.crash-drill/correlation-id';

/** The file descriptor of the client that the harness reads the subject's stderr from. */
export const SUBJECT_STDERR_FD = 4;

export interface ClientSubject {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface ClientToolCall {
  call: string;
  args: Record<string, unknown>;
}

export interface StartCommand {
  type: 'start';
  subject: ClientSubject;
  setup: ClientToolCall[];
  target: ClientToolCall;
  correlationId: string;
  /** Request timeout for setup and target calls. */
  callTimeoutMs: number;
}

export type HarnessCommand =
  | StartCommand
  /** Build the target call and stop just before writing it (emits `before-dispatch`). */
  | { type: 'prepare-target' }
  /**
   * Write the target call. With `holdResponses`, the client stops reading the server's stdout
   * right after the write, so no response can come back before the harness kills it
   * (that is what makes `in-flight` deterministic: the answer stays unread in the pipe).
   */
  | { type: 'dispatch'; holdResponses: boolean }
  /** The spec's shutdown: end stdin, wait, SIGTERM, wait, SIGKILL (direct child only, like the SDK). */
  | { type: 'close'; waitMs: number }
  | { type: 'exit' };

export type CloseStep = 'stdin-closed' | 'sigterm' | 'sigkill';

export type ClientEvent =
  | { type: 'client-ready'; t: number; pid: number }
  | { type: 'subject-spawned'; t: number; pid: number; startTime: number | null }
  | { type: 'spawn-error'; t: number; message: string }
  | { type: 'handshake'; t: number; serverName: string | null; serverVersion: string | null; protocolVersion: string | null }
  | { type: 'rpc-out'; t: number; message: unknown }
  | { type: 'rpc-in'; t: number; message: unknown }
  /** A line on the server's stdout that is not a JSON-RPC message. */
  | { type: 'stdout-noise'; t: number; line: string }
  | { type: 'setup-done'; t: number; steps: number }
  | { type: 'setup-error'; t: number; step: number; call: string; message: string }
  | { type: 'handshake-error'; t: number; message: string }
  | { type: 'before-dispatch'; t: number; requestId: string | number }
  | { type: 'dispatched'; t: number; requestId: string | number }
  | { type: 'response'; t: number; isError: boolean; text: string }
  | { type: 'call-error'; t: number; message: string }
  | { type: 'subject-exit'; t: number; code: number | null; signal: string | null }
  | { type: 'close-step'; t: number; step: CloseStep }
  | { type: 'close-done'; t: number; endedBy: 'eof' | 'SIGTERM' | 'SIGKILL' | 'survived' }
  | { type: 'client-error'; t: number; message: string };

export type ClientEventType = ClientEvent['type'];
