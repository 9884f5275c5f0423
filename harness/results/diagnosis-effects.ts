/**
 * Causes of the failures outside the process tree: stdout that is not the protocol, and what
 * the server did at the drill remote (keyless or re-keyed writes, writes after the loss, jobs
 * left running, the long-lived key after revocation). From the journal and the stdout record in
 * the evidence. Pure: evidence in, text out.
 */
import { SUCCEEDED, serverRequests, subjectRequests } from '../evidence/queries.js';
import { eventsOf, firstOf, type DrillEvidence } from '../evidence/types.js';
import { sdkFinding } from './diagnosis-sdk.js';
import type { Cause } from './diagnosis-server.js';

export function stdoutCause(evidence: DrillEvidence): Cause {
  const noise = eventsOf(evidence, 'stdout-noise');
  const handshake = firstOf(evidence, 'handshake');
  const sdk = sdkFinding(evidence);
  const early = noise.filter((n) => !handshake || n.t < handshake.t);
  const first = noise[0];
  const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}...` : s);
  const observed = [
    `${noise.length} line${noise.length === 1 ? '' : 's'} on stdout that ${noise.length === 1 ? 'is' : 'are'} not JSON-RPC (in the record), ${early.length} before the handshake completed`,
    ...(first ? [`the first: ${quote(first.line)}`] : []),
    `SDK: ${sdk.line}`,
  ];
  const where =
    early.length > 0 && early.length < noise.length
      ? 'a startup banner and output from a handler'
      : early.length > 0
        ? 'a startup banner (before the handshake)'
        : 'output from a handler (after the handshake)';
  const fix =
    sdk.runtime === 'python'
      ? 'print to stderr (print(..., file=sys.stderr), or logging, which writes to stderr): stdout is the protocol'
      : sdk.runtime === 'node'
        ? 'log to stderr (console.error, or a logger bound to process.stderr), never console.log: stdout is the protocol'
        : 'write logs to stderr, never to stdout: stdout is the protocol';
  return { cause: `the server writes text that is not JSON-RPC on stdout: ${where}`, observed, sdk: null, fix };
}

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

export function quietCause(evidence: DrillEvidence): Cause {
  const lost = firstOf(evidence, 'client-lost');
  const target = evidence.meta.correlationId;
  const after = subjectRequests(evidence).filter((r) => r.write && lost && r.t > lost.t && r.correlationId !== target && r.idempotencyKey !== target);
  const routes = [...new Set(after.map((r) => `${r.method} ${r.path}`))];
  const gaps = after.slice(1).map((r, i) => Math.round(r.t - after[i].t));
  const periodic = gaps.length > 0 ? `, every ${Math.min(...gaps)} to ${Math.max(...gaps)} ms` : '';
  return {
    cause: `the server kept writing after its client was gone: ${after.length} new write${after.length === 1 ? '' : 's'} (${routes.join(', ')})${periodic}: a timer or loop of its own that nothing stops at stdin end`,
    observed: after
      .slice(0, 5)
      .map((r) => `${r.method} ${r.path} ${lost ? Math.round(r.t - lost.t) : '?'} ms after the loss (pid ${r.process?.pid ?? '?'}) -> ${r.outcome}`),
    sdk: null,
    fix: 'stop the periodic work (clearInterval, cancel the task) when stdin ends or the transport closes, before the process exits',
  };
}

export function jobsCause(evidence: DrillEvidence): Cause {
  const state = eventsOf(evidence, 'remote-state').find((e) => e.label === 'grace-end');
  const running = (state?.jobs ?? []).filter((j) => j.status === 'running');
  const cancels = serverRequests(evidence).filter((r) => /\/cancel$/.test(r.path));
  return {
    cause: `the server started remote job${running.length === 1 ? '' : 's'} ${running.map((j) => j.id).join(', ')} and never cancelled ${running.length === 1 ? 'it' : 'them'} when its client was lost (${cancels.length} cancel request${cancels.length === 1 ? '' : 's'} seen)`,
    observed: running.map((j) => `job ${j.id}: running at the end of the grace period`),
    sdk: null,
    fix: 'keep the ids of the jobs a call starts and POST /jobs/<id>/cancel for each when stdin ends (or make the job owned by the session, so revoking it ends the job)',
  };
}

export function revocationCause(evidence: DrillEvidence): Cause {
  const revoked = firstOf(evidence, 'revoked');
  const after = subjectRequests(evidence).filter((r) => revoked && r.t >= revoked.t && SUCCEEDED.has(r.outcome));
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
