/**
 * ignores-sigterm: a live timer, no EOF handling, and a SIGTERM handler that only logs, so only
 * SIGKILL ends it (the escalation step of the spec's shutdown sequence). Its children outlive it.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'ignores-sigterm',
  exitOnInputLoss: false,
  onSigterm: 'log-only',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: true,
});
