/**
 * exits-on-sigint-only: a live timer and no EOF handling (like ignores-eof), a SIGTERM handler
 * that only logs, and a clean exit (children ended) on SIGINT, as a server written for Ctrl-C
 * does. Only a client that sends SIGINT (Claude Code) or SIGKILL ends it.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'exits-on-sigint-only',
  exitOnInputLoss: false,
  onSigterm: 'log-only',
  onSigint: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: true,
});
