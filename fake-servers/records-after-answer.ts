/**
 * records-after-answer: well-behaved, but it writes its activity record only once the remote has
 * answered (`started` and `result` together), as a server that logs a request when it completes
 * does. When the client dies with the request held at the remote, the record says nothing of it
 * while it is in flight: `activity-recorded` fails at `sent` and `confirmed`.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'records-after-answer',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  activity: 'after-answer',
});
