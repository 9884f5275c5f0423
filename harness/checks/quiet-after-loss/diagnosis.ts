/**
 * Why quiet-after-loss failed: the writes the server started after its client was gone, and how
 * often, from the journal in the evidence. Pure.
 */
import { firstGenerationRequests } from '../../evidence/queries.js';
import { firstOf, type DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';

export function quietCause(evidence: DrillEvidence): Cause {
  const lost = firstOf(evidence, 'client-lost');
  const target = evidence.meta.correlationId;
  const after = firstGenerationRequests(evidence).filter((r) => r.write && lost && r.t > lost.t && r.correlationId !== target && r.idempotencyKey !== target);
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
