/**
 * retries-without-key: its `write` sends the key on the first attempt, and when that attempt
 * fails (a network error such as a dropped connection, or a 5xx) it retries once WITHOUT the
 * key. When the first attempt committed and only its answer was lost (the remote's
 * `drop-after-commit` fault), that leaves two effects for one operation, the second one
 * keyless (check `idempotent-effects`). Otherwise well-behaved.
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'retries-without-key',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  writePolicy: 'retry-without-key',
});
