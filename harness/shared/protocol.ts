/** The control channel between harness and drill client (Node IPC); every event's `t` is the client's CLOCK_MONOTONIC ms (harness/util/clock.ts). */

import type { ProfileRef, SpawnFacts, StopStep } from '../client-profiles/profiles.js';

export const CORRELATION_META_KEY = 'dev.crash-drill/correlation-id';

/** The file descriptor of the client that the harness reads the subject's stderr from. */
export const SUBJECT_STDERR_FD = 4;

export interface SubjectLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** How the client of the drill's profile spawns its server and what its runtime does when that child exits. */
export interface ClientSpawn {
  profile: ProfileRef;
  spawn: SpawnFacts;
  /** The runtime closes its end of the server's stdin when the direct child exits (Node, Bun). */
  closesStdinWhenChildExits: boolean;
}

export interface ClientToolCall {
  call: string;
  args: Record<string, unknown>;
}

/** A setup step: a tool call, or resources/subscribe (2025-11-25) or subscriptions/listen (2026-07-28). */
export interface ClientSetupStep extends ClientToolCall {
  kind?: 'tool' | 'subscribe' | 'listen';
}

/** The era the client is told to speak (config/types.ts ProtocolChoice). */
export type ClientProtocol = 'auto' | '2025-11-25' | '2026-07-28';

/** The two eras: 2025-11-25 (initialize) and 2026-07-28 (server/discover, a `_meta` envelope on every request). */
export type ProtocolEra = '2025-11-25' | '2026-07-28';

/** How the era was chosen (era-select.ts). */
export type EraChoice = 'probed' | 'probed-late' | 're-probed' | 'fell-back' | 'pinned';

export interface StartCommand {
  type: 'start';
  subject: SubjectLaunch;
  /** The profile's spawn facts (harness/client-profiles/); absent: the TypeScript SDK's. */
  client?: ClientSpawn;
  setup: ClientSetupStep[];
  /** Null for a scenario with no target: its drills are at points that send none (idle). */
  target: ClientToolCall | null;
  correlationId: string;
  callTimeoutMs: number;
  /** Which era to speak; absent means auto. */
  protocol?: ClientProtocol;
  /** auto: how long the server/discover probe may take before falling back to initialize. */
  discoverTimeoutMs?: number;
  /** The longest stdout line held while waiting for its newline (absent: record-cap.ts defaults). */
  lineLimits?: { lineBytes: number; unterminatedBytes: number };
  /** Send the correlation id as progress token (cancel drills only: progress changes what a crash drill sees). */
  progressToken?: boolean;
}

export type HarnessCommand =
  | StartCommand
  /** Build the target call and stop just before writing it (emits `before-dispatch`). */
  | { type: 'prepare-target' }
  /** Write the target call; `holdResponses` stops reading right after, so `in-flight` leaves the answer unread. */
  | { type: 'dispatch'; holdResponses: boolean }
  /** Stop the server with a profile's stop sequence (harness/shared/stop-steps.ts), reporting each step. */
  | { type: 'stop'; steps: StopStep[] }
  /** Drop the server with neither EOF nor a signal: the client keeps its pipe ends and reads on, and sends nothing more. */
  | { type: 'abandon' }
  /** Cancel the target call, read on, then ask `tools/list` on the same connection (alive-after-cancel). */
  | { type: 'cancel'; followUpTimeoutMs: number }
  | { type: 'exit' };

/** What a stop step came to; `refused`: a group step with no group of the server's own. */
export type StopStepResult = 'done' | 'skipped' | 'ended-early' | 'ran-out' | 'sent' | 'none-alive' | 'refused';

/** A process a stop step signalled, by identity, and what the signal came to. */
export interface StopTarget {
  pid: number;
  startTime: number;
  result: 'sent' | 'gone' | 'mismatch' | 'zombie';
}
export type ClientEvent =
  | { type: 'client-ready'; t: number; pid: number }
  | { type: 'subject-spawned'; t: number; pid: number; startTime: number | null }
  | { type: 'spawn-error'; t: number; message: string }
  /** The server/discover probe of protocol auto: answered (modern), or why the client falls back. */
  | { type: 'era-probe'; t: number; outcome: 'answered' | 'error' | 'timeout' | 'closed'; detail: string }
  | {
      type: 'handshake';
      t: number;
      serverName: string | null;
      serverVersion: string | null;
      protocolVersion: string | null;
      /** The era spoken and how it was chosen. */
      era?: ProtocolEra;
      chosenBy?: EraChoice;
      fallbackReason?: string;
    }
  | { type: 'rpc-out'; t: number; message: unknown }
  | { type: 'rpc-in'; t: number; message: unknown }
  /** A stdout line that is not JSON-RPC; `cutBytes`: how much was left out (harness/drill/executor/record-cap.ts). */
  | { type: 'stdout-noise'; t: number; line: string; cutBytes?: number }
  | { type: 'setup-done'; t: number; steps: number }
  | { type: 'setup-error'; t: number; step: number; call: string; message: string }
  | { type: 'handshake-error'; t: number; message: string }
  | { type: 'before-dispatch'; t: number; requestId: string | number }
  | { type: 'dispatched'; t: number; requestId: string | number }
  | { type: 'response'; t: number; isError: boolean; text: string }
  | { type: 'call-error'; t: number; message: string }
  | { type: 'subject-exit'; t: number; code: number | null; signal: string | null }
  /** One step of the profile's stop sequence, as the client took it: when, its result, and whom a signal reached. */
  | { type: 'stop-step'; t: number; index: number; step: StopStep; result: StopStepResult; targets?: StopTarget[] }
  | { type: 'stop-done'; t: number; ms: number }
  /** The client's runtime closed its end of the server's stdin because the direct child exited (Node's and Bun's ChildProcess do). */
  | { type: 'runtime-stdin-closed'; t: number }
  /** The client dropped the server (abandon): nothing closed, nothing sent from here on. */
  | { type: 'abandoned'; t: number }
  /** notifications/cancelled was written, after draining what the server wrote before it (`drained`). */
  | {
      type: 'cancel-sent';
      t: number;
      requestId: string | number;
      progressToken: string | number | null;
      drained?: { bytes: number; complete: boolean };
    }
  /** The follow-up tools/list after a cancel: answered (with how many tools) or not. */
  | { type: 'follow-up'; t: number; ok: boolean; detail: string }
  | { type: 'client-error'; t: number; message: string };
