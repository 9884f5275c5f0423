/**
 * The drill client: its own Node process, so that its death is real. The kernel closes the
 * subject's stdin and stdout when this process dies, exactly as when an IDE or desktop app
 * crashes. It launches the subject with the official SDK Client over a recording stdio
 * transport, reports every event to the harness over Node IPC and obeys the harness's commands.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { monoNow } from '../util/clock.js';
import { CORRELATION_META_KEY, type ClientEvent, type HarnessCommand, type StartCommand } from './protocol.js';
import { RecordingStdioTransport } from './recording-transport.js';

if (!process.send) {
  process.stderr.write('crash-drill client: must be started by the harness with an IPC channel\n');
  process.exit(4);
}

let transport: RecordingStdioTransport | undefined;
let client: Client | undefined;
let start: StartCommand | undefined;
let protocolVersion: string | null = null;

function emit(event: ClientEvent): void {
  if (event.type === 'rpc-in') noteProtocolVersion(event.message);
  process.send?.(event);
}

function noteProtocolVersion(message: unknown): void {
  const result = (message as { result?: { protocolVersion?: unknown } }).result;
  if (protocolVersion === null && typeof result?.protocolVersion === 'string') protocolVersion = result.protocolVersion;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function onStart(command: StartCommand): Promise<void> {
  start = command;
  transport = new RecordingStdioTransport(command.subject, emit);
  client = new Client({ name: 'crash-drill', version: '0.1.0' }, { capabilities: {} });
  // EPIPE on the subject's stdin after it died is part of what a drill observes, not a client failure.
  client.onerror = () => {};
  try {
    await client.connect(transport, { timeout: command.callTimeoutMs });
  } catch (error) {
    if (!transport.child?.pid) return; // spawn-error was already reported
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

function onPrepareTarget(): void {
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
async function onClose(waitMs: number): Promise<void> {
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

process.on('message', (command: HarnessCommand) => {
  switch (command.type) {
    case 'start':
      void onStart(command).catch((error) => emit({ type: 'client-error', t: monoNow(), message: errorMessage(error) }));
      break;
    case 'prepare-target':
      onPrepareTarget();
      break;
    case 'dispatch':
      transport?.dispatch(command.holdResponses);
      break;
    case 'close':
      void onClose(command.waitMs);
      break;
    case 'exit':
      process.exit(0);
  }
});

// The harness went away (it was killed): behave like a crashed client and leave. Whatever the
// subject left behind still carries the drill's marker; the next run's sweep contains it.
process.on('disconnect', () => process.exit(0));

emit({ type: 'client-ready', t: monoNow(), pid: process.pid });
