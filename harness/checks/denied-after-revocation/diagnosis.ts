/**
 * Why denied-after-revocation failed: the revoked token that still worked, or the long-lived key
 * the server used after revocation, from the probe and the journal in the evidence. Pure.
 */
import { SUCCEEDED, firstGenerationRequests } from '../../evidence/queries.js';
import { firstOf, type DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';

export function revocationCause(evidence: DrillEvidence): Cause {
  const revoked = firstOf(evidence, 'revoked');
  const after = firstGenerationRequests(evidence).filter((r) => revoked && r.t >= revoked.t && SUCCEEDED.has(r.outcome));
  const apiKey = after.filter((r) => r.credential === 'api-key');
  const probe = firstOf(evidence, 'probe');
  if (probe && !probe.denied) {
    return {
      cause: `the revoked session token still worked: the probe GET /whoami got ${probe.status}`,
      observed: [],
      sdk: null,
      fix: 'make the API check the session on every request, not only at login',
    };
  }
  return {
    cause:
      apiKey.length > 0
        ? `the server holds the long-lived API key and used it after the session was revoked (${apiKey.length} request${apiKey.length === 1 ? '' : 's'} succeeded), so revoking the session does not take its authority`
        : `${after.length} request${after.length === 1 ? '' : 's'} succeeded after the session was revoked`,
    observed: after
      .slice(0, 5)
      .map((r) => `${r.method} ${r.path} with ${r.credential === 'api-key' ? 'the long-lived API key' : `a ${r.credential} credential`} -> ${r.outcome}`),
    sdk: null,
    fix:
      apiKey.length > 0
        ? 'use the session token ({{session.token}}, CRASH_DRILL_TOKEN) for every call, never the long-lived API key, and rotate the key now'
        : 'find the credential that outlived revocation and tie it to the session',
  };
}
