import { InternalError } from '../util/errors.js';

/** Typed errors of the intercept preload, each with a stable `code`. */
export type PreloadErrorCode =
  | 'PRELOAD_BAD_ORIGIN'
  | 'PRELOAD_NO_REMOTE'
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
