/**
 * What a mutant does on the remote after it lost its client, before it ends its children and
 * exits: the one misbehaviour that makes it the oracle of its check. Each bounds itself, so
 * the exit comes within 1.7 s at most (README.md), inside the remote matrix's 2.5 s deadline.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { monoNow } from '../../harness/util/clock.js';
import type { Log } from './log.js';
import { describeFailure, type RemoteHttp } from './remote-http.js';

export interface AfterLossContext {
  http: RemoteHttp;
  log: Log;
}

export type AfterLoss = (ctx: AfterLossContext) => Promise<void>;

export const HEARTBEAT_EVERY_MS = 100;
/** How long the last requests may take to settle before the process moves on. */
const LAST_REQUESTS_MS = 200;

/**
 * polls-after-loss: a new write (`POST /actions {op: "heartbeat"}`, session token, a fresh key
 * each time) every 100 ms for `pollMs`, whatever the answers are (a 401 after revocation
 * changes nothing): the oracle for `quiet-after-loss`. The heartbeats are counted, not timed:
 * ceil(pollMs / 100) of them (5 for the default 500 ms), each at its own offset from the start,
 * then a wait to the end of `pollMs`. Timed by sleeps alone, a loaded machine once gave 7 in
 * 500 ms: Node schedules a timer from the event loop's cached time, which lags behind the
 * clock after work in the same tick, so a 100 ms sleep can end early.
 */
export function pollHeartbeats(pollMs: number): AfterLoss {
  return async ({ http, log }) => {
    const start = monoNow();
    const count = Math.max(1, Math.ceil(pollMs / HEARTBEAT_EVERY_MS));
    for (let n = 1; n <= count; n++) {
      await sleep(Math.max(0, start + (n - 1) * HEARTBEAT_EVERY_MS - monoNow()));
      const which = n;
      http
        .request({
          method: 'POST',
          path: '/actions',
          body: { op: 'heartbeat', target: 'self' },
          headers: { 'Idempotency-Key': randomUUID() },
        })
        .then(
          (answer) => log(`heartbeat ${which}: HTTP ${answer.status}`),
          (error: unknown) => log(`heartbeat ${which} failed: ${describeFailure(error)}`),
        );
    }
    await sleep(Math.max(0, start + pollMs - monoNow()));
    await http.settle(monoNow() + LAST_REQUESTS_MS);
  };
}

/**
 * static-key-holder: `GET /whoami` with the long-lived API key `times` times, `gapMs` apart.
 * Reads only (so `quiet-after-loss` passes), but a credential that revoking the session does
 * not cover: the oracle for `denied-after-revocation`.
 */
export function whoamiWithApiKey(times: number, gapMs: number): AfterLoss {
  return async ({ http, log }) => {
    if (!http.env?.apiKey) {
      log('no CRASH_DRILL_API_KEY: nothing to read with');
      return;
    }
    for (let i = 1; i <= times; i += 1) {
      if (i > 1) await sleep(gapMs);
      const started = http.request({ method: 'GET', path: '/whoami', credential: 'api-key' }).then(
        (answer) => log(`whoami ${i} with the API key: HTTP ${answer.status}`),
        (error: unknown) => log(`whoami ${i} with the API key failed: ${describeFailure(error)}`),
      );
      await Promise.race([started, sleep(LAST_REQUESTS_MS)]);
    }
  };
}
