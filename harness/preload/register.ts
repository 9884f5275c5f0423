/**
 * The preload: `node --import` through NODE_OPTIONS, so it reaches a server behind `npx` or
 * `sh -c`. It intercepts CRASH_DRILL_INTERCEPT's origins (nothing loaded when empty); a malformed
 * list stops the process, since a drill must never reach a real host. Nothing goes to stdout.
 */
import { INTERCEPT_VAR, parseOrigins } from './origins.js';

const origins = parseOrigins(process.env[INTERCEPT_VAR] ?? '');
if (origins.length > 0) {
  const { installIntercept } = await import('./install.js');
  installIntercept(origins);
}
