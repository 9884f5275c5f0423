/**
 * Why idempotent-effects failed: the server's writes at the drill remote, keyed or not, from the
 * journal in the evidence. Pure.
 */
import { serverRequests } from '../../evidence/queries.js';
import type { DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';

export function idempotencyCause(evidence: DrillEvidence): Cause {
  const writes = serverRequests(evidence).filter((r) => r.write);
  const keyless = writes.filter((r) => !r.idempotencyKey);
  const keyed = writes.filter((r) => r.idempotencyKey);
  const target = evidence.meta.correlationId;
  const observed = writes.map(
    (r) =>
      `${r.method} ${r.path}: ${r.idempotencyKey ? (r.idempotencyKey === target ? 'keyed with the call correlation id' : 'keyed') : 'no Idempotency-Key'} -> ${r.outcome}`,
  );
  if (keyless.length > 0 && keyed.length > 0) {
    return {
      cause: `the server retried a write without its key: ${keyed.length} keyed and ${keyless.length} keyless write${keyless.length === 1 ? '' : 's'} for the same call, so the remote cannot tell the retry from a new operation`,
      observed,
      sdk: null,
      fix: 'send the same Idempotency-Key on every retry of a write (its first attempt and each retry), taken from the call correlation id',
    };
  }
  if (keyless.length > 0) {
    return {
      cause: `the server's writes carry no Idempotency-Key (${keyless.length} of ${writes.length}), so the recovery retry after the crash made a second effect`,
      observed,
      sdk: null,
      fix: 'send an Idempotency-Key on every write: the call correlation id (params._meta["dev.crash-drill/correlation-id"]), or a key derived from the operation; where the API is idempotent by a name the client chooses (a resource name, an object key), use that name, and have the remote\'s handler commit the write under it (commit(..., { key }))',
    };
  }
  return {
    cause: 'an operation took effect more than once although its writes were keyed: the keys differed between the attempt and the retry',
    observed,
    sdk: null,
    fix: 'derive the Idempotency-Key from the call correlation id, not from a fresh random value per attempt',
  };
}
