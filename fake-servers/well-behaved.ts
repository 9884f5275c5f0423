/**
 * well-behaved: the reference for good cleanup. It listens to stdin end/close and stdout errors
 * itself, because the SDK's StdioServerTransport has no 'end' listener (typescript-sdk #2002):
 * an SDK server with a live handle never exits on EOF. On input loss or SIGTERM it stops taking
 * calls (and starts no new write), lets its remote requests in flight settle, cancels the
 * remote jobs it started, ends its children (SIGTERM, then SIGKILL after 1 s), clears its
 * timers and exits 0. Every write carries the call's correlation id as its Idempotency-Key.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'well-behaved',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
});
