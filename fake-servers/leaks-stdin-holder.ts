/**
 * leaks-stdin-holder: leaks-child whose helper keeps the server's stdin, inherited and never read,
 * as a child a server spawns with stdio inherited does. A client that quits after its stop
 * sequence closes that stdin's other end under the helper, so the quit can reach it
 * (harness/plan/by-evidence.ts: the stop drill then runs).
 */
import { runFakeServer } from './lib/base.js';

await runFakeServer({
  name: 'leaks-stdin-holder',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: false,
  helper: 'child',
  helperHoldsStdin: true,
  keepAliveTimer: false,
});
