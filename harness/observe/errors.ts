/** Typed errors of the observer. The `code` is stable: callers and tests match on it, never on the message. */
import { InternalError } from '../util/errors.js';

export type ObserveErrorCode = 'OBSERVE_BAD_DRILL_ID' | 'OBSERVE_BAD_RUN_ID' | 'OBSERVE_REGISTRY_WRITE';

export class ObserveError extends InternalError {
  readonly code: ObserveErrorCode;

  constructor(code: ObserveErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
