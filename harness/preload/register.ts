/**
 * The preload, through NODE_OPTIONS so it reaches a server behind `npx` or `sh -c`. A malformed
 * CRASH_DRILL_INTERCEPT stops the process: a drill must never reach a real host. No stdout.
 */
import { INTERCEPT_VAR, parseOrigins } from './origins.js';

const origins = parseOrigins(process.env[INTERCEPT_VAR] ?? '');
if (origins.length > 0) {
  const { installIntercept } = await import('./install.js');
  installIntercept(origins);
}
