/**
 * exits-when-idle: well-behaved, and it also shuts down (children ended, exit 0) once nothing has
 * come on stdin for `FAKE_IDLE_MS` (default 1500) ms: the one kind of server that notices a
 * client that dropped it with neither EOF nor a signal (the `abandon` mode, Claude Code #79740).
 * Every other server lives on behind such a client (check `no-survivors`).
 */
import { runFakeServer } from './lib/base.js';
import { envMs } from './lib/env-ms.js';

await runFakeServer({
  name: 'exits-when-idle',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  idleExitMs: envMs('FAKE_IDLE_MS', 1500),
});
