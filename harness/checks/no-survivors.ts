import { firstOf, type DrillEvidence } from '../evidence/types.js';
import { isCheckResult, lossOrUnknown } from './loss.js';
import type { Check, CheckResult } from './types.js';

/**
 * no-survivors: after the deadline and the grace period no process of the drill remains: the
 * server, its children, grandchildren, daemons that re-parented or changed session. In `hang`
 * mode the client is alive (stopped), so its server may rightly live on: not applicable.
 */
export const noSurvivors: Check = {
  id: 'no-survivors',
  applies: (evidence, mode) => evidence.meta.expect.noSurvivors !== null && mode !== 'hang',
  run(evidence: DrillEvidence): CheckResult {
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
};
