/**
 * leaks-child: exits on EOF like well-behaved, but leaves its helper children running
 * (check `no-survivors`). The helpers stay in the server's process group, re-parented to init.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'leaks-child',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: false,
  helper: 'child',
  keepAliveTimer: false,
});
