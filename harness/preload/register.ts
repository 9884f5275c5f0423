/**
 * The preload: `node --import=<this file, compiled>` (through NODE_OPTIONS, so it also reaches
 * a server started by `npx` or `sh -c`). It intercepts the origins listed in
 * CRASH_DRILL_INTERCEPT and does nothing when that is empty (then the interceptors are not even
 * loaded). A malformed list throws here, so the process does not start: a drill must never
 * reach a real host by accident. It writes nothing to stdout (an MCP server's stdout carries
 * only JSON-RPC).
 */
import { INTERCEPT_VAR, parseOrigins } from './origins.js';

const origins = parseOrigins(process.env[INTERCEPT_VAR] ?? '');
if (origins.length > 0) {
  const { installIntercept } = await import('./install.js');
  installIntercept(origins);
}
