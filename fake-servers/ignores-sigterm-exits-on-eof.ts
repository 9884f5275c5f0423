/**
 * ignores-sigterm-exits-on-eof: exits cleanly (children ended) on stdin EOF, but its SIGTERM
 * handler only logs. A client that signals without closing stdin first (Gemini CLI's SDK 1.23
 * close) leaves it running; SIGINT still kills it by Node's default, orphaning its helper.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'ignores-sigterm-exits-on-eof',
  exitOnInputLoss: true,
  onSigterm: 'log-only',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
});
