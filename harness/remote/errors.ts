import { InternalError } from '../util/errors.js';

/** Typed errors of the drill remote; `code` is stable, the message is for humans. */
export type RemoteErrorCode = 'REMOTE_UNKNOWN_SESSION' | 'REMOTE_CLOSED' | 'REMOTE_GATE_NOT_REACHED' | 'REMOTE_GATE_ALREADY_RELEASED' | 'REMOTE_BAD_OPTION';

export class RemoteError extends InternalError {
  readonly code: RemoteErrorCode;

  constructor(code: RemoteErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
