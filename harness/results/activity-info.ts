/** The incident record's view of the server's activity record: its last actions beside the last write the remote received. Pure. */
import { activityReads, closingRead, describeActivitySource } from '../evidence/activity-queries.js';
import { firstGenerationRequests } from '../evidence/queries.js';
import type { ActivityEntry, DrillEvidence } from '../evidence/types.js';

/** An action as the record holds it, and when the drill first read it (ms since the drill started). */
export interface RecordedAction {
  key: string;
  phase: ActivityEntry['phase'];
  operation: string | null;
  seenMs: number;
}

export interface ActivityInfo {
  /** Where the record was read: `the file <path>`, `stderr lines matching /.../`. */
  source: string;
  lastStarted: RecordedAction | null;
  lastEnded: RecordedAction | null;
  /** The last write of the drill's server the remote received, by its key. */
  remoteLast: { key: string | null; route: string; ms: number } | null;
  line: string;
}

export function activityInfo(evidence: DrillEvidence): ActivityInfo | null {
  const source = describeActivitySource(evidence);
  if (!source) return null;
  const t0 = evidence.events[0]?.t ?? 0;
  const reads = activityReads(evidence);
  const upTo = closingRead(evidence)?.read.seq ?? Number.POSITIVE_INFINITY;
  const seen: RecordedAction[] = reads
    .filter((r) => r.read.seq <= upTo)
    .flatMap((r) => r.read.entries.map((e) => ({ key: e.key, phase: e.phase, operation: e.operation ?? null, seenMs: Math.round(r.read.t - t0) })));
  const last = (match: (a: RecordedAction) => boolean) => seen.filter(match).at(-1) ?? null;
  const write = firstGenerationRequests(evidence)
    .filter((r) => r.write)
    .at(-1);
  const info = {
    source,
    lastStarted: last((a) => a.phase === 'started'),
    lastEnded: last((a) => a.phase !== 'started'),
    remoteLast: write ? { key: write.idempotencyKey ?? write.correlationId ?? null, route: write.route, ms: Math.round(write.t - t0) } : null,
  };
  return { ...info, line: describeActivity(info) };
}

/** One line for the reports: the server's own last actions beside what the remote saw. */
function describeActivity(info: Omit<ActivityInfo, 'line'>): string {
  const action = (a: RecordedAction | null, none: string) =>
    a ? `${a.key}${a.operation ? ` (${a.operation})` : ''}${a.phase === 'unresolved' ? ' unresolved' : ''} at +${a.seenMs} ms` : none;
  const remote = info.remoteLast ? `${info.remoteLast.key ?? 'a keyless write'} (${info.remoteLast.route}) at +${info.remoteLast.ms} ms` : 'no write';
  return `last started ${action(info.lastStarted, 'none')}; last ended ${action(info.lastEnded, 'none')}; the remote last received ${remote} (${info.source})`;
}
