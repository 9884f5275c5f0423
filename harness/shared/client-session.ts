/** The protocol side of one drill client (era, setup, target call, cancel, shutdown); one per drill. */
import type { StopStep } from '../client-profiles/profiles.js';
import { monoNow } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { EraSession } from './era-session.js';
import { DEFAULT_DISCOVER_TIMEOUT_MS, selectEra } from './era-select.js';
import { CORRELATION_META_KEY, type ClientEvent, type StartCommand } from './protocol.js';
import { RecordingStdioTransport } from './recording-transport.js';
import { CLOSED, connectionClosed } from './rpc-requester.js';
import { DEFAULT_CLIENT_SPAWN, type SpawnedServer } from './spawn-subject.js';
import { runStopSteps, type StopHold } from './stop-steps.js';

/** Ping round trips before a kill where nothing is pending (settle()). */
const SETTLE_ROUNDS = 2;

export class ClientSession {
  private transport: RecordingStdioTransport | undefined;
  private spawned: SpawnedServer | undefined;
  private session: EraSession | undefined;
  private start: StartCommand | undefined;
  private protocolVersion: string | null = null;
  private targetRequestId: string | number | null = null;
  /** Every event goes through here: the handshake's protocol version and the target's request id are read off it. */
  readonly emit: (event: ClientEvent) => void;

  /** @param runtimeRuns whether the client's runtime still runs: a dead or frozen one closes nothing when the server exits. */
  constructor(
    send: (event: ClientEvent) => void,
    private readonly runtimeRuns: () => boolean = () => true,
  ) {
    this.emit = (event) => {
      if (event.type === 'rpc-in') this.noteProtocolVersion(event.message);
      if (event.type === 'before-dispatch') this.targetRequestId = event.requestId;
      send(event);
    };
  }

  dispatch(holdResponses: boolean): void {
    this.transport?.dispatch(holdResponses);
  }

  /** The channel to the harness is backed up (on) or drained (off): stop or resume reading the server's stdout. */
  throttle(on: boolean): void {
    if (on) this.transport?.hold('ipc');
    else this.transport?.release('ipc');
  }

  private noteProtocolVersion(message: unknown): void {
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (this.protocolVersion === null && typeof result?.protocolVersion === 'string') this.protocolVersion = result.protocolVersion;
  }

  async onStart(command: StartCommand, spawned: SpawnedServer): Promise<void> {
    const emit = this.emit;
    this.start = command;
    const transport = new RecordingStdioTransport(spawned, emit, command.lineLimits);
    this.transport = transport;
    this.spawned = spawned;
    this.runtimeClosesStdin(spawned, (command.client ?? DEFAULT_CLIENT_SPAWN).closesStdinWhenChildExits);
    let chosen;
    try {
      chosen = await selectEra(transport, command, emit);
    } catch (error) {
      if (!transport.child.pid) return; // spawn-error was already reported
      emit({ type: 'handshake-error', t: monoNow(), message: errorMessage(error) });
      return;
    }
    const session = chosen.session;
    this.session = session;
    emit({
      type: 'handshake',
      t: monoNow(),
      serverName: chosen.serverName,
      serverVersion: chosen.serverVersion,
      protocolVersion: chosen.protocolVersion ?? this.protocolVersion,
      era: chosen.era,
      chosenBy: chosen.chosenBy,
      ...(chosen.fallbackReason !== undefined ? { fallbackReason: chosen.fallbackReason } : {}),
    });
    await this.listTools(session, command.callTimeoutMs);
    for (const [index, step] of command.setup.entries()) {
      try {
        await session.setupStep(step, command.callTimeoutMs);
      } catch (error) {
        emit({ type: 'setup-error', t: monoNow(), step: index, call: step.call, message: errorMessage(error) });
        return;
      }
    }
    await this.settle();
    emit({ type: 'setup-done', t: monoNow(), steps: command.setup.length });
  }

  /**
   * `tools/list`, as every client sends it once connected: rmcp answers `server/discover` and `ping`
   * from inside `serve()`, which returns only at the first other request (rust-sdk
   * crates/rmcp/src/service/server.rs `serve_server_with_ct_inner`, 3.11.0).
   */
  private async listTools(session: EraSession, timeoutMs: number): Promise<void> {
    try {
      await session.listTools(timeoutMs);
    } catch {
      // an error answer is an answer; a timeout or a closed pipe is in the evidence
    }
  }

  /**
   * Ping round trips before a kill where nothing is pending: answers come in order. Two, the second after the
   * first answer: a server may answer a ping read in the same chunk and defer its reply to its loop's next turn.
   */
  private async settle(): Promise<void> {
    const { session, start } = this;
    if (!session || !start) return;
    for (let round = 0; round < SETTLE_ROUNDS; round++) {
      try {
        await session.ping(start.discoverTimeoutMs ?? DEFAULT_DISCOVER_TIMEOUT_MS);
      } catch {
        // an error answer also shows the order; a timeout or a closed pipe is in the evidence
        return;
      }
    }
  }

  onPrepareTarget(): void {
    const { session, transport, start, emit } = this;
    if (!session || !transport || !start) return;
    const { target, correlationId, callTimeoutMs } = start;
    if (!target) {
      emit({ type: 'client-error', t: monoNow(), message: 'the scenario has no target call' });
      return;
    }
    transport.holdTarget(correlationId);
    // The correlation id doubles as progress token, so the target call's progress is told apart after the cancel.
    const meta = { [CORRELATION_META_KEY]: correlationId, ...(start.progressToken ? { progressToken: correlationId } : {}) };
    session
      .callTool(target, meta, callTimeoutMs)
      .then(async (answer) => {
        await this.settle();
        emit({ type: 'response', t: monoNow(), isError: answer.isError, text: answer.text });
      })
      .catch((error: unknown) => emit({ type: 'call-error', t: monoNow(), message: errorMessage(error) }));
  }

  /** The cancel drill: drain stdout, write notifications/cancelled, read on, and ask tools/list on the same connection. */
  async onCancel(followUpTimeoutMs: number): Promise<void> {
    const { session, transport, start, emit } = this;
    if (!session || !transport || !start) return;
    if (this.targetRequestId === null) {
      emit({ type: 'client-error', t: monoNow(), message: 'there is no target call to cancel' });
      return;
    }
    const message = session.cancelMessage(this.targetRequestId, 'crash-drill: the client abandoned the call');
    // Read first what the server wrote before the cancel: an answer read then crossed the cancel.
    const { t, drain } = await transport.writeAfterDrain(message as Parameters<RecordingStdioTransport['write']>[0]);
    emit({
      type: 'cancel-sent',
      t,
      requestId: this.targetRequestId,
      progressToken: start.progressToken ? start.correlationId : null,
      drained: { bytes: drain.bytes, complete: drain.complete },
    });
    transport.resumeReading();
    try {
      const tools = await session.listTools(followUpTimeoutMs);
      emit({ type: 'follow-up', t: monoNow(), ok: true, detail: `tools/list answered with ${tools} tool${tools === 1 ? '' : 's'}` });
    } catch (error) {
      emit({
        type: 'follow-up',
        t: monoNow(),
        ok: false,
        detail: `tools/list: ${connectionClosed(error) ? CLOSED : errorMessage(error)}`,
      });
    }
  }

  /** Node's and Bun's ChildProcess destroy the child's stdin at its exit (nodejs/node lib/internal/child_process.js onexit; oven-sh/bun src/js/node/child_process.ts handleOnExit). */
  private runtimeClosesStdin(spawned: SpawnedServer, closes: boolean): void {
    if (!closes) return;
    spawned.child.once('exit', () => {
      const stdin = spawned.stdin;
      if (!stdin || stdin.writableEnded || !this.runtimeRuns()) return;
      stdin.destroy();
      this.emit({ type: 'runtime-stdin-closed', t: monoNow() });
    });
  }

  /** The profile's stop sequence (stop-steps.ts), reading stdout again first, as a live client does while it stops a server. */
  async onStop(steps: readonly StopStep[]): Promise<void> {
    const { transport, spawned } = this;
    if (!transport || !spawned) {
      this.emit({ type: 'client-error', t: monoNow(), message: 'there is no server to stop' });
      return;
    }
    transport.resumeReading();
    await runStopSteps(steps, this.hold(transport, spawned), this.emit);
  }

  /** Drop the server: nothing closed, nothing signalled, nothing more written; what it writes is still read. */
  onAbandon(): void {
    this.transport?.resumeReading();
    this.emit({ type: 'abandoned', t: monoNow() });
  }

  private hold(transport: RecordingStdioTransport, spawned: SpawnedServer): StopHold {
    const child = spawned.child;
    return {
      child: () => spawned.identity(),
      childExited: () => spawned.exited,
      childExit: (ms) =>
        new Promise<boolean>((resolve) => {
          if (spawned.exited) return resolve(true);
          const timer = setTimeout(() => resolve(false), ms);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve(true);
          });
        }),
      closeStdin: () => transport.closeStdin(),
      ownGroup: (this.start?.client ?? DEFAULT_CLIENT_SPAWN).spawn.group !== 'same',
    };
  }
}
