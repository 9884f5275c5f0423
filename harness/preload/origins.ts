/** The hosts to intercept, as origins parsed with WHATWG URL, the same string `new URL(request.url).origin` gives. */
import { PreloadError } from './errors.js';

export const INTERCEPT_VAR = 'CRASH_DRILL_INTERCEPT';

/** Normalises one origin; throws PRELOAD_BAD_ORIGIN for anything but a bare http(s) origin. */
export function normaliseOrigin(entry: string): string {
  const text = entry.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PreloadError('PRELOAD_BAD_ORIGIN', `${INTERCEPT_VAR}: "${text}" is not a URL (expected e.g. https://api.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PreloadError('PRELOAD_BAD_ORIGIN', `${INTERCEPT_VAR}: "${text}" is not http or https`);
  }
  // A path, query or credentials would suggest a finer match than the preload does: say so.
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new PreloadError('PRELOAD_BAD_ORIGIN', `${INTERCEPT_VAR}: "${text}" must be an origin only (scheme, host, port), got a path, query or credentials`);
  }
  return url.origin;
}

export function parseOrigins(list: string | readonly string[]): string[] {
  const entries = typeof list === 'string' ? list.split(',') : list;
  const origins = entries.filter((e) => e.trim() !== '').map(normaliseOrigin);
  return [...new Set(origins)];
}
