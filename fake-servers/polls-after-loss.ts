/**
 * polls-after-loss: on input loss it does what well-behaved does with its jobs, but instead of
 * stopping it keeps writing: `POST /actions {op: "heartbeat", target: "self"}` with its token
 * and a fresh key every 100 ms for FAKE_POLL_MS (default 500) ms, whatever the answers (after
 * revocation they are 401s), then ends its children and exits 0 (check `quiet-after-loss`).
 */
import { pollHeartbeats } from './lib/after-loss.js';
import { runFakeServer } from './lib/base.js';
import { envMs } from './lib/env-ms.js';

const DEFAULT_POLL_MS = 500;

await runFakeServer({
  name: 'polls-after-loss',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  afterLoss: pollHeartbeats(envMs('FAKE_POLL_MS', DEFAULT_POLL_MS)),
});
