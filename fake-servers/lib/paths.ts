/**
 * Scripts the fake servers start as children. Resolved next to this module, so they point at
 * dist/fake-servers/lib/*.js once compiled (the servers run with plain `node`, never tsx).
 */
import { fileURLToPath } from 'node:url';

export const HELPER_SCRIPT = fileURLToPath(new URL('./helper.js', import.meta.url));
export const DAEMON_LAUNCHER_SCRIPT = fileURLToPath(new URL('./daemon-launcher.js', import.meta.url));
