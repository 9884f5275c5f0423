/**
 * sdk2-ignores-cancel: on a cancel it stops reporting (and the SDK drops the answer), but the
 * call's helper runs on until the work's time is up (stops-after-cancel fails). Otherwise
 * sdk2-dual-era.
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-ignores-cancel', legacy: 'serve', exitOnClose: true, onCancel: 'keep-child' });
