/**
 * stdout-noise: prints a non-JSON banner on stdout at startup and one stray console.log at its
 * first tool call (check `stdout-clean`); otherwise well-behaved.
 */
import { runFakeServer } from './lib/base.js';
import { STDOUT_NOISE_BANNER, STDOUT_NOISE_FIRST_CALL } from './lib/noise-lines.js';

await runFakeServer({
  name: 'stdout-noise',
  exitOnInputLoss: true,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: false,
  stdoutNoise: { banner: STDOUT_NOISE_BANNER, firstCall: STDOUT_NOISE_FIRST_CALL },
});
