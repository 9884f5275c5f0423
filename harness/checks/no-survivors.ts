import { firstOf, type DrillEvidence } from '../evidence/types.js';
import { isCheckResult, lossOrUnknown } from './loss.js';
import { defineCheck, type CheckOutcome } from './types.js';

export type NoSurvivorsData =
  | { afterMs: number; early: boolean }
  | { afterMs: number; survivors: Array<{ pid: number; startTime: number; ppid: number }> };

/**
 * no-survivors: after the deadline and the grace period no process of the drill remains: the
 * server, its children, grandchildren, daemons that re-parented or changed session. In `hang`
 * mode the client is alive (stopped), so its server may rightly live on: not applicable.
 */
export const noSurvivors = defineCheck({
  id: 'no-survivors',
  applies: (evidence, mode) => evidence.meta.expect.noSurvivors !== null && mode !== 'hang',
  run(evidence: DrillEvidence): CheckOutcome<'no-survivors', NoSurvivorsData> {
    const id = 'no-survivors' as const;
    const loss = lossOrUnknown(evidence, id);
    if (isCheckResult(loss)) return loss;
    const snapshot = firstOf(evidence, 'snapshot');
    if (!snapshot) return { id, verdict: 'unknown', summary: 'no process snapshot was taken after the grace period', data: {} };
    const after = Math.round(snapshot.t - loss.t);
    const survivors = snapshot.survivors;
    if (survivors.length === 0) {
      return { id, verdict: 'pass', summary: `no process of the drill remained ${after} ms after the client was lost`, data: { afterMs: after, early: snapshot.early } };
    }
    const named = survivors
      .slice(0, 3)
      .map((row) => `pid ${row.pid} (ppid ${row.ppid}) ${row.cmdline.join(' ').slice(0, 80)}`)
      .join('; ');
    const more = survivors.length > 3 ? `; and ${survivors.length - 3} more` : '';
    const noun = survivors.length === 1 ? 'process' : 'processes';
    return {
      id,
      verdict: 'fail',
      summary: `${survivors.length} ${noun} survived ${after} ms after the client was lost: ${named}${more}`,
      data: { afterMs: after, survivors: survivors.map((row) => ({ pid: row.pid, startTime: row.startTime, ppid: row.ppid })) },
    };
  },
  followUp: (_outcome, evidence) =>
    survivorsOf(evidence).map((s) => `process ${s.pid} outlived its client: it has been contained; make the server end its children`),
  details(_outcome, evidence) {
    const survivors = survivorsOf(evidence);
    if (survivors.length === 0) return [];
    const items = survivors.map((s) => {
      const credential = s.credential.present ? `; holds a credential in ${s.credential.vars.join(', ')}` : '';
      return `pid ${s.pid} (ppid ${s.ppid}, pgid ${s.pgid}, sid ${s.sid}, state ${s.state}) ${s.cmdline.join(' ')} [found by ${s.foundBy.join(', ')}${credential}]`;
    });
    return [{ label: 'survivors', items }];
  },
});

function survivorsOf(evidence: DrillEvidence) {
  return firstOf(evidence, 'snapshot')?.survivors ?? [];
}
