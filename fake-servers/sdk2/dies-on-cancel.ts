/**
 * sdk2-dies-on-cancel: takes a cancel as the end of the connection: it closes it, cleans up and
 * exits, so the follow-up tools/list is never answered (alive-after-cancel fails). Otherwise
 * sdk2-dual-era.
 */
import { runSdk2Server } from './lib/base.js';

runSdk2Server({ name: 'sdk2-dies-on-cancel', legacy: 'serve', exitOnClose: true, onCancel: 'close' });
