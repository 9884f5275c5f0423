/**
 * helper-own-group: exits on EOF or SIGTERM like well-behaved, but its spawn-helper starts the
 * helper in a process group of its own (setpgid, same session) and leaves it running. A
 * `killpg` of the server's group misses it; a walk of the server's descendants while the
 * server lives finds it (check `no-survivors`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'helper-own-group',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: false,
  helper: 'child',
  helperPlacement: 'own-group',
  keepAliveTimer: false,
});
