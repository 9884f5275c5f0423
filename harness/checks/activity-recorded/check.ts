import { activityReads, closingRead, describeActivitySource, isEnd } from '../../evidence/activity-queries.js';
import { firstGenerationRequests } from '../../evidence/queries.js';
import { serverToldOfLoss } from '../../evidence/client-signals.js';
import { firstOf, type ActivityCounts, type DrillEvidence } from '../../evidence/types.js';
import { isNotReached, lossOrUnknown } from '../../evidence/loss.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import type { ActivityRecordedData } from './data.js';
import { activityCauses } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

/**
 * activity-recorded: each write the remote received had a `started` entry with its key in the
 * server's record when it arrived (harness/drill/executor/activity-record.ts), and each started
 * action has a `result` or `unresolved` entry by the server's exit or the grace's end. No write:
 * cannot tell.
 */
export const activityRecorded = defineCheck({
  id: 'activity-recorded',
  requirement: practice(
    'activity-recorded',
    'Every external write the remote received was in the server’s own record (started, with its key) before it arrived, and every action the record started has a result or unresolved entry before the server exited.',
    'A record written after the answer, or one that never says how an action ended, cannot tell an operator which request of a crashed session took effect; the spec says nothing of a server’s record of its actions.',
  ),
  matcher: { name: 'toRecordEveryAction', expects: 'record every external action before it is sent, and its end before it exits' },
  applies: (evidence, mode) => evidence.meta.expect.activityRecorded === true && serverToldOfLoss(mode),
  run(evidence: DrillEvidence): Judgement<ActivityRecordedData> {
    const loss = lossOrUnknown(evidence);
    if (isNotReached(loss)) return loss;
    const source = describeActivitySource(evidence);
    if (!source) return { verdict: 'unknown', summary: "the drill did not read the server's activity record", data: {} };
    const writes = firstGenerationRequests(evidence).filter((r) => r.write);
    if (writes.length === 0) return { verdict: 'unknown', summary: 'no write of the drill reached the remote: nothing to hold the record against', data: {} };
    const reads = activityReads(evidence);
    const judged = writes.map((r) => {
      const keys = [r.idempotencyKey, r.correlationId].filter((k): k is string => !!k);
      const base = { seq: r.seq, route: r.route, key: keys[0] ?? null };
      const at = reads.find((x) => x.read.read === 'request' && x.read.request === r.seq);
      if (keys.length === 0) return { ...base, recorded: 'keyless' as const };
      if (!at) return { ...base, recorded: 'unknown' as const };
      const started = (e: { phase: string; key: string }) => e.phase === 'started' && keys.includes(e.key);
      if (at.known.some(started)) return { ...base, recorded: 'before' as const };
      // The record was cut by then: its entry may be among what was left out or left unread.
      if (isCut(at.read.counts)) return { ...base, recorded: 'unknown' as const };
      const later = reads.find((x) => x.read.entries.some(started));
      if (later) return { ...base, recorded: 'after' as const, afterMs: Math.round(later.read.t - r.t) };
      return { ...base, recorded: 'never' as const };
    });
    const closing = closingRead(evidence);
    const known = closing?.known ?? [];
    const endedKeys = new Set(known.filter(isEnd).map((e) => e.key));
    const open = [...new Set(known.filter((e) => e.phase === 'started' && !endedKeys.has(e.key)).map((e) => e.key))];
    const counts = (closing?.read ?? reads.at(-1)?.read)?.counts;
    const data: ActivityRecordedData = {
      source,
      writes: judged,
      open,
      closedAt: closing ? (closing.exited ? 'exit' : 'window-end') : null,
      ended: { result: known.filter((e) => e.phase === 'result').length, unresolved: known.filter((e) => e.phase === 'unresolved').length },
      dropped: counts?.dropped ?? 0,
      cut: counts ? isCut(counts) : false,
      problems: counts?.problems ?? [],
    };
    const when = closing?.exited ? 'before it exited' : 'by the end of the grace period';
    const missing = judged.filter((w) => w.recorded === 'after' || w.recorded === 'never');
    // Ends left out past the bounds cannot be told from ends never written.
    const openCertain = data.cut ? [] : open;
    if (missing.length > 0 || openCertain.length > 0) {
      const parts = [
        ...missing.map((w) =>
          w.recorded === 'after'
            ? `the remote received ${w.key} (${w.route}) before the server recorded it: started was written ${w.afterMs} ms after the request arrived`
            : `the remote received ${w.key} (${w.route}); the server never recorded it`,
        ),
        ...(openCertain.length > 0
          ? [`${openCertain.length} action${openCertain.length === 1 ? '' : 's'} started and never ended ${when} (${openCertain.join(', ')})`]
          : []),
      ];
      return { verdict: 'fail', summary: parts.join('; '), data };
    }
    const unsure = judged.filter((w) => w.recorded === 'keyless' || w.recorded === 'unknown');
    if (unsure.length > 0) {
      const w = unsure[0];
      const why = w.recorded === 'keyless' ? 'carried no key the record could name' : 'could not be held against the record (it was not read then, or was cut)';
      return { verdict: 'unknown', summary: `write #${w.seq} (${w.route}) ${why}`, data };
    }
    if (!closing) return { verdict: 'unknown', summary: 'the record was not read when the server exited or at the end of the window', data };
    if (open.length > 0)
      return {
        verdict: 'unknown',
        summary: `${open.length} started action(s) with no end kept: the record was cut (record.activity-entries, activity-bytes)`,
        data,
      };
    const ends = `${data.ended.result} result${data.ended.result === 1 ? '' : 's'}, ${data.ended.unresolved} unresolved`;
    return {
      verdict: 'pass',
      summary: `${judged.length === 1 ? 'the write' : `all ${judged.length} writes`} the remote received ${judged.length === 1 ? 'was' : 'were'} in the server's record before ${judged.length === 1 ? 'it' : 'they'} arrived, and every action it started was ended ${when} (${ends})`,
      data,
    };
  },
  details(outcome) {
    const data = dataOf(outcome);
    const out = [];
    const never = (data.writes ?? []).filter((w) => w.recorded === 'never');
    if (never.length > 0) out.push({ label: 'the remote received, the server never recorded', items: never.map((w) => `${w.key} (#${w.seq} ${w.route})`) });
    const after = (data.writes ?? []).filter((w) => w.recorded === 'after');
    if (after.length > 0)
      out.push({ label: 'recorded only after the request arrived', items: after.map((w) => `${w.key} (#${w.seq} ${w.route}): ${w.afterMs} ms after`) });
    if ((data.open ?? []).length > 0) out.push({ label: 'started, never ended', items: data.open ?? [] });
    if ((data.problems ?? []).length > 0) out.push({ label: 'lines of the record that are not actions', items: data.problems ?? [] });
    return out;
  },
  diagnose: (outcome, evidence) => activityCauses(dataOf(outcome), firstOf(evidence, 'activity-source')?.kind ?? 'file'),
});

/** What the drill kept of the record is not all of it: actions past activity-entries, or bytes past activity-bytes. */
function isCut(counts: ActivityCounts): boolean {
  return counts.dropped > 0 || counts.unreadBytes > 0;
}
