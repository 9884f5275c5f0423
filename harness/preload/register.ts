/** The preload, through NODE_OPTIONS so it reaches a server behind `npx` or `sh -c`; a malformed list stops the process, never reaching a real host. */
import { INTERCEPT_VAR, parseOrigins } from './origins.js';

const origins = parseOrigins(process.env[INTERCEPT_VAR] ?? '');
if (origins.length > 0) {
  const { installIntercept } = await import('./install.js');
  installIntercept(origins);
}
