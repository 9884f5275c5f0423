import { serverRequests } from '../../evidence/queries.js';
import { eventsOf, type DrillEvidence, type RemoteEffect } from '../../evidence/types.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { idempotencyCause } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

export interface IdempotentEffectsData {
  writes: number;
  keyless: Array<{ seq: number; route: string; pid: number | null }>;
  /** Writes whose handler named the key that makes them idempotent (a resource name). */
  keyedByName?: number;
  effects: Array<{ id: string; op: string; key: string | null; session: string | null }>;
  /** Effect ids of each operation that took effect more than once. */
  duplicates: string[][];
  retry: { ok: boolean; detail: string } | null;
}

/**
 * idempotent-effects: after the crash and retry, one effect per logical operation (per
 * Idempotency-Key; keyless effects group by op and target), and every write carried a key or was
 * committed under a name (`commit(..., { key })`).
 */
export const idempotentEffects = defineCheck({
  id: 'idempotent-effects',
  requirement: practice(
    'write-idempotent-on-retry',
    'Every external write carries a key that makes it idempotent, so a retry after a crash makes no second effect.',
    'The spec says a client restarts a server that exited unexpectedly and may retry the requests that were lost (basic/transports/stdio, Unexpected Termination), but has no idempotency rule (an idempotencyKey on tools/call was proposed and closed, PR #3182); only a key makes that retry safe.',
  ),
  matcher: { name: 'toBeIdempotent', expects: 'leave exactly one effect per operation' },
  applies: (evidence) => evidence.meta.expect.idempotentEffects === true,
  run(evidence: DrillEvidence): Judgement<IdempotentEffectsData> {
    const state = eventsOf(evidence, 'remote-state').pop();
    if (!state) return { verdict: 'unknown', summary: 'the remote state was never recorded', data: {} };
    const writes = serverRequests(evidence).filter((r) => r.write);
    // A write is keyed by its Idempotency-Key, or by the name its handler committed it under.
    const keyless = writes.filter((r) => !r.idempotencyKey && r.keyedBy !== 'name');
    const keyedByName = writes.filter((r) => r.keyedBy === 'name').length;
    const duplicates = duplicateGroups(state.effects);
    const retried = eventsOf(evidence, 'retry-end')[0];
    const data: IdempotentEffectsData = {
      writes: writes.length,
      keyless: keyless.map((r) => ({ seq: r.seq, route: r.route, pid: r.process?.pid ?? null })),
      keyedByName,
      effects: state.effects.map((e) => ({ id: e.id, op: e.op, key: e.idempotencyKey, session: e.sessionId })),
      duplicates: duplicates.map((group) => group.map((e) => e.id)),
      retry: retried ? { ok: retried.ok, detail: retried.detail } : null,
    };
    const problems: string[] = [];
    if (duplicates.length > 0) {
      const listed = duplicates.map((group) => `${group.map((e) => e.id).join(' and ')} (${group[0].op})`).join('; ');
      problems.push(`${duplicates.length} operation${duplicates.length === 1 ? '' : 's'} took effect more than once: ${listed}`);
    }
    if (keyless.length > 0)
      problems.push(`${keyless.length} of ${writes.length} writes carried no Idempotency-Key (first: ${keyless[0].method} ${keyless[0].path})`);
    if (problems.length > 0) return { verdict: 'fail', summary: problems.join('; '), data };
    const retryNote = retried ? (retried.ok ? ' after the recovery retry' : ` (the recovery retry did not complete: ${retried.detail})`) : '';
    if (writes.length === 0) return { verdict: 'pass', summary: `no write reached the remote${retryNote}: no effect to duplicate`, data };
    const byName = keyedByName === 0 ? '' : keyedByName === writes.length ? ', keyed by name,' : ` (${keyedByName} keyed by name)`;
    return {
      verdict: 'pass',
      summary: `${state.effects.length} effect${state.effects.length === 1 ? '' : 's'} for ${writes.length} keyed write${writes.length === 1 ? '' : 's'}${byName}${retryNote}, none duplicated`,
      data,
    };
  },
  // What to reconcile now; what to change (a missing key, a retry without its key) is the drill's diagnosis (harness/checks/stdout-clean/diagnosis.ts).
  followUp: (outcome) =>
    (dataOf(outcome).duplicates ?? []).map((group) => `effects ${group.join(' and ')} are one operation: reconcile them (undo all but one)`),
  details(outcome) {
    const data = dataOf(outcome);
    const out = [];
    const duplicates = data.duplicates ?? [];
    if (duplicates.length > 0) out.push({ label: 'duplicates', items: duplicates.map((group) => group.join(' and ')) });
    const keyless = data.keyless ?? [];
    if (keyless.length > 0)
      out.push({ label: 'writes without an Idempotency-Key', items: keyless.map((w) => `#${w.seq} ${w.route} (pid ${w.pid ?? 'unknown'})`) });
    return out;
  },
  diagnose: (_outcome, evidence) => idempotencyCause(evidence),
});

/** Effects of the same op and target where at least one carried no key: one operation, several effects. */
function duplicateGroups(effects: RemoteEffect[]): RemoteEffect[][] {
  const byOperation = new Map<string, RemoteEffect[]>();
  for (const effect of effects) byOperation.set(effect.operation, [...(byOperation.get(effect.operation) ?? []), effect]);
  return [...byOperation.values()].filter((group) => group.length > 1 && group.some((e) => e.idempotencyKey === null));
}
