/**
 * never-ends-actions: well-behaved, and it records `started` before each remote write, but never
 * records how an action ended: no `result`, and nothing `unresolved` at shutdown. An operator
 * reading its record cannot tell a finished deploy from one cut off: `activity-recorded` fails.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'never-ends-actions',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  activity: 'started-only',
});
