/**
 * The handshake: the client's initialize and the scenario's setup steps. Done, or a harness
 * error that says which part failed and why.
 */
import type { ClientEvent } from '../../shared/protocol.js';
import type { Scenario } from '../../config/index.js';
import { SETUP_ENDED } from '../client/client-process.js';
import type { DrillClient } from '../client/drill-client.js';

export type HandshakeOutcome = { done: true } | { done: false; phase: 'setup' | 'handshake'; message: string };

export async function handshake(
  client: DrillClient,
  scenario: Scenario,
  serverGone: () => boolean,
  wait: <T>(promise: Promise<T>) => Promise<T>,
): Promise<HandshakeOutcome> {
  const answer = await wait(client.waitFor((e) => SETUP_ENDED.has(e.type), scenario.timeouts.handshake));
  if (answer?.type === 'setup-done') return { done: true };
  return { done: false, phase: answer?.type === 'setup-error' ? 'setup' : 'handshake', message: failure(answer, serverGone(), scenario.timeouts.handshake) };
}

function failure(answer: ClientEvent | null, serverGone: boolean, timeoutMs: number): string {
  if (!answer)
    return serverGone ? 'the server exited before the handshake and setup completed' : `initialize and setup did not complete within ${timeoutMs} ms`;
  switch (answer.type) {
    case 'spawn-error':
      return `the server command could not be started: ${answer.message}`;
    case 'setup-error':
      return `setup step ${answer.step} (${answer.call}) failed: ${answer.message}`;
    default:
      return `${answer.type}: ${'message' in answer ? answer.message : ''}`;
  }
}
