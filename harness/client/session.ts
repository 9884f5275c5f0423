/**
 * The SDK side of the drill client, loaded once the server is already starting (main.ts): the
 * official SDK Client over the recording transport, initialize, the setup calls, the target
 * call with its correlation id, and the spec's shutdown.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { monoNow } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { CORRELATION_META_KEY, type ClientEvent, type StartCommand } from './protocol.js';
import { RecordingStdioTransport } from './recording-transport.js';
import type { SpawnedSubject } from './spawn-subject.js';

let transport: RecordingStdioTransport | undefined;
let client: Client | undefined;
let start: StartCommand | undefined;
let protocolVersion: string | null = null;
let emit: (event: ClientEvent) => void = () => {};

/** Every event goes through here: the handshake's protocol version is read off the wire. */
export function setEmitter(send: (event: ClientEvent) => void): (event: ClientEvent) => void {
  emit = (event) => {
    if (event.type === 'rpc-in') noteProtocolVersion(event.message);
    send(event);
  };
  return emit;
}

export function dispatch(holdResponses: boolean): void {
  transport?.dispatch(holdResponses);
}

function noteProtocolVersion(message: unknown): void {
  const result = (message as { result?: { protocolVersion?: unknown } }).result;
  if (protocolVersion === null && typeof result?.protocolVersion === 'string') protocolVersion = result.protocolVersion;
}

export async function onStart(command: StartCommand, spawned: SpawnedSubject): Promise<void> {
  start = command;
  transport = new RecordingStdioTransport(spawned, emit);
  client = new Client({ name: 'crash-drill', version: '0.1.0' }, { capabilities: {} });
  // EPIPE on the subject's stdin after it died is part of what a drill observes, not a client failure.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: command.callTimeoutMs });
  } catch (error) {
    if (!transport.child.pid) return; // spawn-error was already reported
    emit({ type: 'handshake-error', t: monoNow(), message: errorMessage(error) });
    return;
  }
  const info = client.getServerVersion();
  emit({ type: 'handshake', t: monoNow(), serverName: info?.name ?? null, serverVersion: info?.version ?? null, protocolVersion });
  for (const [index, step] of command.setup.entries()) {
    try {
      const result = await client.callTool({ name: step.call, arguments: step.args }, undefined, { timeout: command.callTimeoutMs });
      if (result.isError) throw new Error(`the tool answered with isError: ${resultText(result)}`);
    } catch (error) {
      emit({ type: 'setup-error', t: monoNow(), step: index, call: step.call, message: errorMessage(error) });
      return;
    }
  }
  emit({ type: 'setup-done', t: monoNow(), steps: command.setup.length });
}

export function onPrepareTarget(): void {
  if (!client || !transport || !start) return;
  const { target, correlationId, callTimeoutMs } = start;
  transport.holdTarget(correlationId);
  client
    .callTool({ name: target.call, arguments: target.args, _meta: { [CORRELATION_META_KEY]: correlationId } }, undefined, {
      timeout: callTimeoutMs,
    })
    .then((result) => emit({ type: 'response', t: monoNow(), isError: result.isError === true, text: resultText(result) }))
    .catch((error: unknown) => emit({ type: 'call-error', t: monoNow(), message: errorMessage(error) }));
}

function resultText(result: unknown): string {
  const raw = (result as { content?: unknown }).content;
  const content = Array.isArray(raw) ? raw : [];
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? part.text ?? '' : `[${part.type}]`))
    .join('\n')
    .slice(0, 500);
}

/** The spec's stdio shutdown, timed like the SDK's StdioClientTransport.close(), but judged on 'exit'. */
export async function onClose(waitMs: number): Promise<void> {
  const child = transport?.child;
  if (!transport || !child) return;
  transport.resumeReading();
  const waitExit = () =>
    new Promise<boolean>((resolve) => {
      if (transport!.exited) return resolve(true);
      const timer = setTimeout(() => resolve(false), waitMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  child.stdin?.end();
  emit({ type: 'close-step', t: monoNow(), step: 'stdin-closed' });
  if (await waitExit()) return emit({ type: 'close-done', t: monoNow(), endedBy: 'eof' });
  // The subject is this process's own unreaped child, so its pid cannot have been reused.
  child.kill('SIGTERM');
  emit({ type: 'close-step', t: monoNow(), step: 'sigterm' });
  if (await waitExit()) return emit({ type: 'close-done', t: monoNow(), endedBy: 'SIGTERM' });
  child.kill('SIGKILL');
  emit({ type: 'close-step', t: monoNow(), step: 'sigkill' });
  if (await waitExit()) return emit({ type: 'close-done', t: monoNow(), endedBy: 'SIGKILL' });
  emit({ type: 'close-done', t: monoNow(), endedBy: 'survived' });
}

