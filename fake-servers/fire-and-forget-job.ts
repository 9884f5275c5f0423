/**
 * fire-and-forget-job: well-behaved, except that it never cancels the remote jobs it started:
 * on input loss it just exits, and a job that runs past the grace period is left unresolved
 * (check `jobs-settled`).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'fire-and-forget-job',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  cancelJobsOnLoss: false,
});
