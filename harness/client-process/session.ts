/**
 * The drill client process's one session (client-session.ts), loaded once the server is
 * already starting (main.ts).
 */
import type { StopStep } from '../client-profiles/profiles.js';
import type { ClientEvent, StartCommand } from '../shared/protocol.js';
import { ClientSession } from '../shared/client-session.js';
import type { SpawnedServer } from '../shared/spawn-subject.js';

let session: ClientSession | undefined;

/** Every event goes through the session: returns the emitter to use from now on. */
export function setEmitter(send: (event: ClientEvent) => void): (event: ClientEvent) => void {
  session = new ClientSession(send);
  return session.emit;
}

export function throttle(on: boolean): void {
  session?.throttle(on);
}

export function dispatch(holdResponses: boolean): void {
  session?.dispatch(holdResponses);
}

export async function onStart(command: StartCommand, spawned: SpawnedServer): Promise<void> {
  await session?.onStart(command, spawned);
}

export function onPrepareTarget(): void {
  session?.onPrepareTarget();
}

export async function onCancel(followUpTimeoutMs: number): Promise<void> {
  await session?.onCancel(followUpTimeoutMs);
}

export async function onStop(steps: StopStep[]): Promise<void> {
  await session?.onStop(steps);
}

export function onAbandon(): void {
  session?.onAbandon();
}
