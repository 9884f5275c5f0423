/**
 * sdk2-slow-start: dual-era, but serveStdio starts only after FAKE_START_DELAY_MS (default 3000),
 * as a server with heavy imports or a slow config load does: the client's first message waits in
 * the pipe until then. Every verdict and the era must be dual-era's, whatever the delay.
 */
import { envMs } from '../lib/env-ms.js';
import { runSdk2Server } from './lib/base.js';

setTimeout(() => runSdk2Server({ name: 'sdk2-slow-start', legacy: 'serve', exitOnClose: true, onCancel: 'stop' }), envMs('FAKE_START_DELAY_MS', 3000));
