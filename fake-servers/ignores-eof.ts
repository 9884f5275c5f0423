/**
 * ignores-eof: what a plain SDK server with a timer does. A live interval from startup keeps
 * the event loop alive and nothing listens for stdin 'end' (typescript-sdk #2002), so losing
 * the client changes nothing. SIGTERM still ends its children and the server, so the only fault
 * an oracle sees is its own non-exit (check `exit-on-eof`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'ignores-eof',
  exitOnInputLoss: false,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: true,
});
