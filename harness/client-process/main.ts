/**
 * The drill client, its own Node process so its death is real: the kernel closes the subject's
 * stdio as when an IDE crashes. It runs the SDK Client over a recording transport and talks to
 * the harness over IPC. It spawns the server first and loads the SDK (session.ts) meanwhile, so
 * a drill pays for one process start, not a start plus an SDK load.
 */
import { monoNow } from '../util/clock.js';
import { errorMessage, EXIT } from '../util/errors.js';
import type { ClientEvent, HarnessCommand } from '../shared/protocol.js';
import { spawnSubject } from '../shared/spawn-subject.js';

if (!process.send) {
  process.stderr.write('crash-drill client: must be started by the harness with an IPC channel\n');
  process.exit(EXIT.harness);
}

/**
 * Past HIGH unsent messages to the harness the client stops reading the server's stdout until LOW:
 * Node queues what the IPC channel cannot take in memory, so a flooding server would bloat it.
 */
const HIGH = 512;
const LOW = 64;
let unsent = 0;
let throttled = false;
let throttle = (_on: boolean): void => {};

function send(event: ClientEvent): void {
  unsent++;
  process.send?.(event, undefined, undefined, () => {
    unsent--;
    if (throttled && unsent <= LOW) {
      throttled = false;
      throttle(false);
    }
  });
  if (!throttled && unsent >= HIGH) {
    throttled = true;
    throttle(true);
  }
}

let emit = (event: ClientEvent): void => send(event);
const session = import('./session.js').then((s) => {
  emit = s.setEmitter(send);
  throttle = s.throttle;
  return s;
});

function fail(error: unknown): void {
  emit({ type: 'client-error', t: monoNow(), message: errorMessage(error) });
}

process.on('message', (command: HarnessCommand) => {
  switch (command.type) {
    case 'start': {
      let spawned;
      try {
        spawned = spawnSubject(command.subject, (event) => emit(event), command.client);
      } catch (error) {
        fail(error);
        break;
      }
      void session.then((s) => s.onStart(command, spawned)).catch(fail);
      break;
    }
    case 'prepare-target':
      void session.then((s) => s.onPrepareTarget()).catch(fail);
      break;
    case 'dispatch':
      void session.then((s) => s.dispatch(command.holdResponses)).catch(fail);
      break;
    case 'stop':
      void session.then((s) => s.onStop(command.steps)).catch(fail);
      break;
    case 'abandon':
      void session.then((s) => s.onAbandon()).catch(fail);
      break;
    case 'cancel':
      void session.then((s) => s.onCancel(command.followUpTimeoutMs)).catch(fail);
      break;
    case 'exit':
      process.exit(EXIT.ok);
  }
});

// The harness went away (it was killed): behave like a crashed client and leave. Whatever the
// subject left behind still carries the drill's marker; the next run's sweep contains it.
process.on('disconnect', () => process.exit(EXIT.ok));

emit({ type: 'client-ready', t: monoNow(), pid: process.pid });
