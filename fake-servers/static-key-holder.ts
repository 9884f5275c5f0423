/**
 * static-key-holder: well-behaved, but on input loss it reads `GET /whoami` with the long-lived
 * API key (CRASH_DRILL_API_KEY) 3 times, 100 ms apart, before exiting 0. Revoking the session
 * does not cover that key, so a request of the drill's process succeeds after revocation
 * (check `denied-after-revocation`); they are reads only, so `quiet-after-loss` still passes.
 */
import { whoamiWithApiKey } from './lib/after-loss.js';
import { runFakeServer } from './lib/base.js';

const READS = 3;
const READ_GAP_MS = 100;

await runFakeServer({
  name: 'static-key-holder',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  afterLoss: whoamiWithApiKey(READS, READ_GAP_MS),
});
