/**
 * sdk2-dual-era: an SDK 2 server that serves both eras (`legacy: 'serve'`): server/discover and
 * 2026-07-28 requests, and initialize for 2025-era clients. SDK 2's transport closes on stdin
 * EOF; on that it ends its children, clears its timers and exits 0. On a cancel it ends the
 * call's helper and stops reporting. The reference that passes every check in both eras.
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-dual-era', legacy: 'serve', exitOnClose: true, onCancel: 'stop' });
