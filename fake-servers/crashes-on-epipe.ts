/**
 * crashes-on-epipe: a plain SDK server that keeps talking. It sends a log notification every
 * 50 ms and has no stdout 'error' handler (neither has the SDK's StdioServerTransport), so the
 * first write after its client died throws an unhandled EPIPE and the process dies with a stack
 * trace on stderr. The oracle for the exit classification `crash`, not for a check: it does
 * exit once its client is gone, just not cleanly.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'crashes-on-epipe',
  exitOnInputLoss: false,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: true,
  notifyEveryMs: 50,
});
