/** A drill's client, either kind (client-process.ts, in-process-client.ts): the executor uses only this. */
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
  /** Called in the tick of the loss's signal: an in-process client closes or freezes its pipe ends there. */
  onLoss?(mode: 'crash' | 'hang'): void;
  /** The exit deadline has passed: a lost client's piped stderr, held open until now, closes. */
  releaseStderr?(): void;
  /** Hands over, synchronously, what waits in the server's stderr pipe now (text-pipe.ts). */
  drainSubjectStderr(): void;
}

/**
 * The kind when a run names none: CRASH_DRILL_CLIENT when set, so a test group can run with
 * either client unchanged; else the in-process client (one Node process per drill, not two).
 */
export function defaultClientKind(env: NodeJS.ProcessEnv = process.env): ClientKind {
  const kind = env.CRASH_DRILL_CLIENT;
  if (kind === undefined || kind === '') return 'inprocess';
  if ((CLIENT_KINDS as readonly string[]).includes(kind)) return kind as ClientKind;
  throw new EnvVarError('CRASH_DRILL_CLIENT', CLIENT_KINDS.join(' or '), kind);
}

/** A client of the kind asked for; without the holder (perl, Linux) a client process, and `fellBack` says why. */
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
