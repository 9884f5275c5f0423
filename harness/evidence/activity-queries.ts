/** Queries over the server's activity record as the drill read it (harness/drill/executor/activity-record.ts). Pure. */
import { serverExitOf } from './queries.js';
import { eventsOf, firstOf, type ActivityEntry, type DrillEvidence, type EvidenceOf } from './types.js';

export type ActivityReadEvent = EvidenceOf<'activity'>;

/** Every read in order, each with every action the record held by then. */
export function activityReads(evidence: DrillEvidence): Array<{ read: ActivityReadEvent; known: ActivityEntry[] }> {
  const out: Array<{ read: ActivityReadEvent; known: ActivityEntry[] }> = [];
  let known: ActivityEntry[] = [];
  for (const read of eventsOf(evidence, 'activity')) {
    known = [...known, ...read.entries];
    out.push({ read, known });
  }
  return out;
}

/** The read that closes what the server could record: its own exit before containment, else the window's end; null if none. */
export function closingRead(evidence: DrillEvidence): { read: ActivityReadEvent; known: ActivityEntry[]; exited: boolean } | null {
  const exit = serverExitOf(evidence);
  const containment = firstOf(evidence, 'containment-start');
  const exited = exit !== null && (containment === undefined || exit.t < containment.t);
  const reads = activityReads(evidence);
  const closing = reads.find((r) => r.read.read === (exited ? 'exit' : 'window-end'));
  return closing ? { ...closing, exited } : null;
}

/** Where the drill read the record, in words: `CRASH_DRILL_ACTIVITY_FILE`, `the file <path>`, `stderr lines matching /.../`. */
export function describeActivitySource(evidence: DrillEvidence): string | null {
  const source = firstOf(evidence, 'activity-source');
  if (!source) return null;
  if (source.kind === 'stderr') return `stderr lines matching /${source.pattern}/`;
  return source.drillFile ? 'CRASH_DRILL_ACTIVITY_FILE' : `the file ${source.file}`;
}

/** The ends of an action: its result, or the server's note that it does not know it. */
export function isEnd(entry: ActivityEntry): boolean {
  return entry.phase === 'result' || entry.phase === 'unresolved';
}
