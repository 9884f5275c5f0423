/**
 * records-activity: well-behaved, and it keeps its own activity record the way the practice
 * asks: `started` with the request's key before each remote write leaves, `result` when the
 * answer comes, `unresolved` when the answer was lost, and at shutdown, once the work in flight
 * had its deadline (1 s, lib/remote-on-loss.ts), `unresolved` for what is still open
 * (lib/activity-log.ts). The pass side of `activity-recorded`.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'records-activity',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  activity: 'before-send',
});
