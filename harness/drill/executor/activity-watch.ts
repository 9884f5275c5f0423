/**
 * When a drill reads the server's own activity record (activity-record.ts): each write of the
 * drill's first generation as it arrives at the remote, the server's exit, and the end of the
 * observation window and of the drill (the executor's calls). The record is read where the
 * scenario asks for it: activity-recorded judges it, or a subject names where it is.
 *
 * Every drill gives its server a record file in its temp folder (`{{activity.file}}`,
 * CRASH_DRILL_ACTIVITY_FILE); the recovery retry's server gets a file of its own, so the first
 * generation's record is its own.
 */
import { join } from 'node:path';
import type { Scenario } from '../../config/index.js';
import { DEFAULT_ACTIVITY } from '../../config/index.js';
import type { JournalEvent } from '../../remote/types.js';
import { ActivityRecord } from './activity-record.js';
import type { RemoteLink } from './remote-link.js';
import type { ServerWatch } from './server-watch.js';
import type { DrillContext } from './types.js';

export type Generation = 'drill' | 'retry';

/** The record file of a generation's server, in the drill's temp folder (0700, temp-folder.ts). */
export function activityFileFor(tmp: string, generation: Generation): string {
  return join(tmp, generation === 'drill' ? 'activity.jsonl' : 'activity-retry.jsonl');
}

/** Reads the record at each write the remote receives and at the server's exit; null when the drill does not read it. */
export function watchActivity(
  ctx: DrillContext,
  scenario: Scenario,
  link: RemoteLink,
  watch: ServerWatch,
  drainStderr: () => void,
  activityFile: string,
): ActivityRecord | null {
  const own = scenario.subject.activity;
  if (scenario.expect.activityRecorded !== true && own === undefined) return null;
  const spec = own ?? { ...DEFAULT_ACTIVITY, source: { kind: 'file' as const, path: activityFile } };
  const drillFile = spec.source.kind === 'file' && spec.source.path === activityFile;
  const onJournal = (event: JournalEvent): void => {
    if (event.kind !== 'request' || !event.write) return;
    if (event.drillId !== ctx.drillId && event.processDrillId !== ctx.drillId) return;
    // The recovery retry's server keeps a record of its own.
    if (link.retrySession && event.sessionId === link.retrySession.sessionId) return;
    record.read('request', event.seq);
  };
  const record = new ActivityRecord({ ...spec, drillFile }, scenario.record, ctx.rec, { drainStderr, onFinish: () => link.remote.off('journal', onJournal) });
  // Registered after the link's own listener (its constructor): the request is in the evidence first.
  link.remote.on('journal', onJournal);
  void watch.exit.then(() => record.read('exit'));
  return record;
}
