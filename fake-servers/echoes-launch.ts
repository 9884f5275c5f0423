/**
 * echoes-launch: prints what it was started with (its argv, and the value of every environment
 * variable FAKE_ECHO_NAMES lists) on stderr and as a non-JSON line on stdout, at startup and at
 * its first tool call, then behaves like ignores-eof: it stays up after the client is lost,
 * with a helper child started by spawn-helper. Every place a report shows a server (its
 * command line, its stderr, its stdout noise, its survivors' argv, the incident record) then
 * holds whatever its launch held: the oracle for secrets in outputs (harness/util/secrets.ts).
 */
import { runFakeServer } from './lib/base.js';

const names = (process.env.FAKE_ECHO_NAMES ?? '').split(',').filter(Boolean);
const launch = `launch: ${process.argv.slice(2).join(' ')} | ${names.map((n) => `${n}=${process.env[n] ?? ''}`).join(' ')}`;
process.stderr.write(`${launch}\n`);

await runFakeServer({
  name: 'echoes-launch',
  exitOnInputLoss: false,
  onSigterm: 'shutdown',
  endChildrenOnExit: true,
  helper: 'child',
  keepAliveTimer: true,
  stdoutNoise: { banner: launch, firstCall: launch },
});
