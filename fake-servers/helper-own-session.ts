/**
 * helper-own-session: exits on EOF or SIGTERM like well-behaved, but its spawn-helper starts the
 * helper in a session of its own (setsid) and leaves it running: neither the server's group
 * nor its session reaches it, only a walk of the server's descendants while the server lives
 * (check `no-survivors`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'helper-own-session',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: false,
  helper: 'child',
  helperPlacement: 'own-session',
  keepAliveTimer: false,
});
