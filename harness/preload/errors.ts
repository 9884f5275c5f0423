import { InternalError } from '../util/errors.js';

/** Typed errors of the intercept preload, each with a stable `code`. */
export type PreloadErrorCode =
  /** An entry of CRASH_DRILL_INTERCEPT (or of `interceptEnv`) is not an http(s) origin. */
  | 'PRELOAD_BAD_ORIGIN'
  /** A listed host was called but CRASH_DRILL_REMOTE_URL is missing or not a URL. */
  | 'PRELOAD_NO_REMOTE'
  /** The drill remote could not be reached (the forwarded request failed on the network). */
  | 'PRELOAD_FORWARD_FAILED';

export class PreloadError extends InternalError {
  constructor(
    readonly code: PreloadErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
