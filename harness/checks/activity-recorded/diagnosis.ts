/** Why activity-recorded failed: a finding with its fix per write recorded late or never, and per action never ended. Pure. */
import type { Cause } from '../types.js';
import type { ActivityRecordedData } from './data.js';

const FORMAT = 'one JSON object a line: {"t", "key", "phase": "started" | "result" | "unresolved"} (docs/remote.md, "The server\'s own activity record")';

export function activityCauses(data: Partial<ActivityRecordedData>, source: 'file' | 'stderr'): Cause[] {
  const writes = data.writes ?? [];
  const where = data.source ?? 'the record';
  const flush =
    source === 'stderr'
      ? 'write the line to stderr unbuffered'
      : 'append it with a write that returns before the request is sent (no buffered or asynchronous logger)';
  const causes: Cause[] = [];
  const after = writes.filter((w) => w.recorded === 'after');
  if (after.length > 0)
    causes.push({
      cause: `the server recorded its action only after the request had reached the remote: ${after.map((w) => `the remote received ${w.key}; the server recorded it ${w.afterMs} ms later`).join('; ')}`,
      observed: after.map((w) => `write #${w.seq} ${w.route} with key ${w.key} arrived; ${where} had no started entry for it until ${w.afterMs} ms later`),
      sdk: null,
      fix: `record "started" with the request's key before the request is sent: ${flush}`,
    });
  const never = writes.filter((w) => w.recorded === 'never');
  if (never.length > 0)
    causes.push({
      cause: `the remote received ${never.map((w) => `key ${w.key}`).join(', ')}; the server never recorded ${never.length === 1 ? 'it' : 'them'}`,
      observed: [
        ...never.map((w) => `write #${w.seq} ${w.route} with key ${w.key}: no entry with that key in ${where}`),
        ...(data.problems ?? []).map((p) => `${where}: ${p}`),
      ],
      sdk: null,
      fix: `keep an activity record: before each external write, append ${FORMAT}, keyed by the request's Idempotency-Key (or the call's correlation id); a server that logs its own way names its file or stderr pattern and field names in subject.activity`,
    });
  const open = data.open ?? [];
  if (open.length > 0) {
    const when = data.closedAt === 'exit' ? 'before it exited' : 'by the end of the grace period (it had not exited)';
    causes.push({
      cause: `the server started ${open.length === 1 ? 'an action' : `${open.length} actions`} and recorded no end ${when}: ${open.join(', ')}`,
      observed: open.map((key) => `${where}: ${key} started, with no result or unresolved entry ${when}`),
      sdk: null,
      fix: 'record "result" when the answer comes, and at shutdown give the work in flight a deadline, then record "unresolved" for what is still open before exiting',
    });
  }
  return causes;
}
