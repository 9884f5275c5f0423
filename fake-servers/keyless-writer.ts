/**
 * keyless-writer: well-behaved in every way but one: its `write` sends no Idempotency-Key at
 * all, so the remote cannot tell a retry from a new operation (check `idempotent-effects`:
 * every write must carry a key).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'keyless-writer',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  writePolicy: 'keyless',
});
