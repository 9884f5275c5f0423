/**
 * sdk2-talks-after-cancel: on a cancel it ends the call's helper but keeps sending progress for
 * the cancelled request for 600 ms (silent-after-cancel fails). Otherwise sdk2-dual-era.
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-talks-after-cancel', legacy: 'serve', exitOnClose: true, onCancel: 'keep-talking' });
