/**
 * What a baseline lists: every drill check that did not pass, in plan order, and the drill
 * itself when it erred (then only that) or is unknown without a check to blame (a kill point
 * not reached).
 * Pure: from results, whether of a run just done or of a report folder's results.json.
 */
import type { BaselineEntryInfo, DrillResult } from '../results/types.js';
import { entryKey } from './load.js';

export function collectEntries(drills: Iterable<DrillResult>, reasons: ReadonlyMap<string, string> = new Map()): BaselineEntryInfo[] {
  const out = new Map<string, BaselineEntryInfo>();
  const add = (entry: Omit<BaselineEntryInfo, 'reason'>) => {
    const key = entryKey(entry);
    // Repeated attempts: the worst verdict seen for the entry is the one to list.
    const had = out.get(key);
    if (had && rank(had.verdict) >= rank(entry.verdict)) return;
    out.set(key, { ...entry, reason: had?.reason ?? reasons.get(key) ?? '' });
  };
  for (const drill of drills) {
    // An erred drill's checks judged a drill that did not happen as planned: the error is the entry.
    if (drill.verdict === 'error') {
      add({ drill: drill.key, check: null, verdict: 'error' });
      continue;
    }
    for (const check of drill.checks) if (check.verdict !== 'pass') add({ drill: drill.key, check: check.id, verdict: check.verdict });
    const blamed = drill.checks.some((c) => c.verdict !== 'pass');
    if (drill.verdict === 'unknown' && !blamed) add({ drill: drill.key, check: null, verdict: 'unknown' });
  }
  return [...out.values()];
}

function rank(verdict: BaselineEntryInfo['verdict']): number {
  return verdict === 'error' ? 2 : verdict === 'fail' ? 1 : 0;
}
