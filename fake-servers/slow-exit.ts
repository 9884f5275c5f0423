/**
 * slow-exit: on EOF it waits FAKE_EXIT_DELAY_MS (default 3000) before ending its children and
 * exiting 0 (check `exit-on-eof` with a deadline shorter than the delay). SIGTERM during the
 * wait ends it at once, so the spec's "close stdin, wait, SIGTERM" sequence records SIGTERM as
 * the step that ended it. Otherwise well-behaved.
 */
import { runFakeServer } from './lib/base.js';
import { envMs } from './lib/env-ms.js';

const DEFAULT_EXIT_DELAY_MS = 3000;
const exitDelayMs = envMs('FAKE_EXIT_DELAY_MS', DEFAULT_EXIT_DELAY_MS);

await runFakeServer({
  name: 'slow-exit',
  exitOnInputLoss: true,
  exitDelayMs,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
});
