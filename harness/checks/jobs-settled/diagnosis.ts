/**
 * Why jobs-settled failed: the remote jobs left running at the end of the grace period, and the
 * cancels the server sent, from the remote's state and journal in the evidence. Pure.
 */
import { serverRequests } from '../../evidence/queries.js';
import { eventsOf, type DrillEvidence } from '../../evidence/types.js';
import type { Cause } from '../types.js';

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
