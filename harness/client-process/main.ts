/**
 * The drill client, its own Node process so its death is real: the kernel closes the subject's
 * stdio as when an IDE crashes. It runs the SDK Client over a recording transport and talks to
 * the harness over IPC. It spawns the server first and loads the SDK (session.ts) while the server
 * starts, so a drill pays for one process start, not a start plus an SDK load.
 *
 * dist/bin/drill-client.js calls runClient() from one CommonJS bundle of this module, compiled
 * with the V8 code cache the build made for it (harness/build/bundle.ts); the build's one
 * evaluation calls loadSession() too, so the cache holds the SDK's module code as well.
 */
import { monoNow } from '../util/clock.js';
import { errorMessage, EXIT } from '../util/errors.js';
import type { ClientEvent, HarnessCommand } from '../shared/protocol.js';
import { spawnSubject } from '../shared/spawn-subject.js';

type Session = typeof import('./session.js');

let sessionModule: Promise<Session> | undefined;

/** The session module (the SDK and what drives it), loaded once. */
export function loadSession(): Promise<Session> {
  sessionModule ??= import('./session.js');
  return sessionModule;
}

export function runClient(): void {
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
  let loaded: Promise<Session> | undefined;
  /** The session, loaded on first need: the start command's, once the server is spawned. */
  function session(): Promise<Session> {
    loaded ??= loadSession().then((s) => {
      emit = s.setEmitter(send);
      throttle = s.throttle;
      return s;
    });
    return loaded;
  }

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
        void session()
          .then((s) => s.onStart(command, spawned))
          .catch(fail);
        break;
      }
      case 'prepare-target':
        void session()
          .then((s) => s.onPrepareTarget())
          .catch(fail);
        break;
      case 'dispatch':
        void session()
          .then((s) => s.dispatch(command.holdResponses))
          .catch(fail);
        break;
      case 'stop':
        void session()
          .then((s) => s.onStop(command.steps))
          .catch(fail);
        break;
      case 'abandon':
        void session()
          .then((s) => s.onAbandon())
          .catch(fail);
        break;
      case 'cancel':
        void session()
          .then((s) => s.onCancel(command.followUpTimeoutMs))
          .catch(fail);
        break;
      case 'exit':
        process.exit(EXIT.ok);
    }
  });

  // The harness went away (it was killed): behave like a crashed client and leave. Whatever the
  // subject left behind still carries the drill's marker; the next run's sweep contains it.
  process.on('disconnect', () => process.exit(EXIT.ok));

  emit({ type: 'client-ready', t: monoNow(), pid: process.pid });
}
