/** Public entry of the drill remote. */
export { createRemote, DrillRemote, type RemoteOptions, type SessionOptions } from './remote.js';
export { builtinHandlers, BUILTIN_WRITES } from './builtin-handlers.js';
export { remoteContext, type RemoteRequestContext } from './request-context.js';
export { foldRequests } from './journal-fold.js';
export { RemoteError, type RemoteErrorCode } from './errors.js';
export type { Gate, GateSpec, GateState } from './gates.js';
export type { Fault } from './faults.js';
export type { RouteSpec } from './routes.js';
export type { CommitResult } from './effects-store.js';
export type { Attribution, CandidateSource } from './attribution/attributor.js';
export { DRILL_ENV } from '../observe/index.js';
export type * from './types.js';
