/**
 * The harness's handle on a drill's client, whichever kind: a client process
 * (client-process.ts, `--client process`) or the SDK client in the harness process over the
 * server's pipes, with a stand-in as the server's parent (in-process-client.ts, `--client
 * inprocess`). The executor, the kill points and the kill modes use only this.
 */
import type { ChildProcess } from 'node:child_process';
import type { ClientEvent, HarnessCommand } from '../../shared/protocol.js';
import type { ProcIdentity } from '../../observe/index.js';
import { DrillClientProcess, type ClientProcessHandlers } from './client-process.js';
import type { HolderState } from '../holder/holder.js';
import type { HolderPool } from '../holder/holder-pool.js';
import { InProcessClient, inProcessUnavailable } from './in-process-client.js';

import { CLIENT_KINDS, type ClientKind } from './client-kinds.js';
import { EnvVarError } from '../../util/errors.js';

export { CLIENT_KINDS, type ClientKind };

export interface DrillClient {
  /** The process the harness spawned: the holder, or the client itself without one. */
  readonly child: ChildProcess;
  readonly holder: HolderState | null;
  readonly alive: boolean;
  ready(timeoutMs: number): Promise<ProcIdentity | null>;
  clientPid(): number | undefined;
  send(command: HarnessCommand): boolean;
  waitFor(match: (event: ClientEvent) => boolean, timeoutMs: number): Promise<ClientEvent | null>;
  closed(timeoutMs: number): Promise<void>;
  abandon(): void;
  dispose(): void;
  release(): void;
  /**
   * Called in the very tick the client is lost, right after the signal (crash: SIGKILL, hang:
   * SIGSTOP): an in-process client closes or freezes its ends of the server's pipes there.
   */
  onLoss?(mode: 'crash' | 'hang'): void;
  /**
   * The exit deadline has passed: a piped stderr whose reading end the lost client held, kept
   * open until now so that no log line could end the server before exit-on-eof judged it,
   * closes as the client's death or quit closed it.
   */
  releaseStderr?(): void;
  /** Hands over, synchronously, what waits in the server's stderr pipe now (text-pipe.ts). */
  drainSubjectStderr(): void;
}

/**
 * The kind when a run names none: CRASH_DRILL_CLIENT (process or inprocess) when set, so a
 * whole test group or CI job can be run with either client unchanged; else the in-process
 * client: one Node process per drill (the server's) instead of two. It falls back to a client
 * process where the holder cannot run (createDrillClient).
 *
 * The in-process client reaches a point within a millisecond of the event, where a client
 * process takes a few milliseconds of IPC. Before the ping round trip at `idle` and
 * `after-response` (harness/shared/client-session.ts), that decided whether a real server's
 * reply to its last message beat the kill (server-everything at idle then exited as a crash
 * instead of cleanly); with it, both clients give the same results on the real servers.
 */
export function defaultClientKind(env: NodeJS.ProcessEnv = process.env): ClientKind {
  const kind = env.CRASH_DRILL_CLIENT;
  if (kind === undefined || kind === '') return 'inprocess';
  if ((CLIENT_KINDS as readonly string[]).includes(kind)) return kind as ClientKind;
  throw new EnvVarError('CRASH_DRILL_CLIENT', CLIENT_KINDS.join(' or '), kind);
}

/**
 * A client of the kind asked for. The in-process client needs the holder (perl, Linux); without
 * it the drill runs with a client process, and `fellBack` says why.
 */
export function createDrillClient(
  kind: ClientKind,
  drillId: string,
  handlers: ClientProcessHandlers,
  cgroupDir?: string,
  pool?: HolderPool | null,
): { client: DrillClient; fellBack: string | null } {
  if (kind === 'inprocess') {
    const why = inProcessUnavailable();
    if (why === null) return { client: new InProcessClient(drillId, handlers, cgroupDir, pool), fellBack: null };
    return { client: new DrillClientProcess(drillId, handlers, cgroupDir), fellBack: why };
  }
  return { client: new DrillClientProcess(drillId, handlers, cgroupDir), fellBack: null };
}
