/**
 * Reading the server's own activity record into the evidence (activity-record.ts), on a real
 * file and real text: each read records what is new since the last, lines not yet ended wait,
 * other lines are counted and never kept, the bounds hold, the record's own field names and
 * phases are read as ours, and the drill's secrets never reach the evidence.
 */
import { appendFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACTIVITY } from '../../../harness/config/activity-schema.js';
import { DEFAULT_RECORD_LIMITS } from '../../../harness/config/normalise.js';
import type { ActivitySpec } from '../../../harness/config/types.js';
import { ActivityRecord } from '../../../harness/drill/executor/activity-record.js';
import { EvidenceRecorder } from '../../../harness/drill/executor/recorder.js';
import { eventsOf } from '../../../harness/evidence/types.js';
import { makeMeta } from '../../checks/evidence-builder.js';
import { tempDir } from '../../support/temp-dir.js';

const line = (o: object) => `${JSON.stringify(o)}\n`;

function setup(spec: Partial<ActivitySpec> = {}, limits = {}, drainStderr?: () => void) {
  const file = join(tempDir(), 'activity.jsonl');
  const rec = new EvidenceRecorder(makeMeta());
  const record = new ActivityRecord(
    { ...DEFAULT_ACTIVITY, source: { kind: 'file', path: file }, ...spec },
    { ...DEFAULT_RECORD_LIMITS, ...limits },
    rec,
    drainStderr ? { drainStderr } : {},
  );
  const reads = () => eventsOf(rec.evidence(), 'activity');
  return { file, rec, record, reads };
}

describe('the activity record', () => {
  it('records what is new at each read, with the read that found it', () => {
    const { file, record, reads } = setup();
    record.read('request', 3);
    appendFileSync(file, line({ t: 1, key: 'k1', phase: 'started', operation: 'deploy', target: 'web', session: 's-1' }));
    // Not ended yet: it waits for its newline.
    appendFileSync(file, '{"key":"k1","phase":"res');
    record.read('request', 5);
    appendFileSync(file, 'ult","remoteId":"eff_1"}\n');
    record.read('exit');
    const [first, second, third] = reads();
    expect(first).toMatchObject({ read: 'request', request: 3, entries: [], absent: true });
    expect(second.entries).toEqual([
      { key: 'k1', phase: 'started', t: 1, operation: 'deploy', session: 's-1', target: expect.stringMatching(/^[0-9a-f]{12}$/), line: 1 },
    ]);
    expect(second.request).toBe(5);
    expect(second).not.toHaveProperty('absent');
    expect(third.entries).toEqual([{ key: 'k1', phase: 'result', remoteId: 'eff_1', line: 2 }]);
    expect(third.counts).toMatchObject({ lines: 2, entries: 2, other: 0, malformed: 0, dropped: 0 });
  });

  it('counts other lines and malformed actions, and keeps none of their text', () => {
    const { file, record, reads } = setup();
    writeFileSync(
      file,
      [
        'plain text with a secret-looking ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        line({ level: 'info', msg: 'listening' }).trim(),
        line({ key: 'k1', phase: 'begun' }).trim(),
        line({ phase: 'started' }).trim(),
        line({ key: 'k2', phase: 'started' }).trim(),
        '',
      ].join('\n'),
    );
    record.read('exit');
    const [read] = reads();
    expect(read.entries.map((e) => e.key)).toEqual(['k2']);
    expect(read.counts).toMatchObject({ lines: 5, entries: 1, other: 2, malformed: 2 });
    expect(read.counts.problems).toEqual([
      'line 3: phase "begun" is not one of "started", "result", "unresolved"',
      "line 4: no key (a string: the action's Idempotency-Key or correlation id)",
    ]);
    expect(JSON.stringify(read)).not.toContain('ghp_');
  });

  it("reads a server's own field names and phase values as ours", () => {
    const spec = {
      fields: { ...DEFAULT_ACTIVITY.fields, key: 'ctx.requestId', phase: 'event' },
      phases: { started: 'begin', result: 'done', unresolved: 'gave-up' },
    };
    const { file, record, reads } = setup(spec);
    writeFileSync(
      file,
      line({ event: 'begin', ctx: { requestId: 'r-9' } }) + line({ event: 'gave-up', ctx: { requestId: 'r-9' } }) + line({ event: 'started', key: 'x' }),
    );
    record.read('exit');
    expect(reads()[0].entries.map((e) => `${e.phase} ${e.key}`)).toEqual(['started r-9', 'unresolved r-9']);
    expect(reads()[0].counts.malformed).toBe(1);
  });

  it('is bounded: entries past activity-entries are counted, bytes past activity-bytes left unread, long lines refused', () => {
    const { file, record, reads } = setup({}, { activityEntries: 2, activityBytes: 400, lineBytes: 100 });
    const entries = [1, 2, 3].map((i) => line({ key: `k${i}`, phase: 'started' })).join('');
    writeFileSync(file, `${entries}${'x'.repeat(150)}\n${line({ key: 'k4', phase: 'started' })}${'y'.repeat(500)}\n`);
    record.read('exit');
    const [read] = reads();
    expect(read.entries.map((e) => e.key)).toEqual(['k1', 'k2']);
    expect(read.counts).toMatchObject({ entries: 4, dropped: 2, malformed: 1, bytes: 400 });
    expect(read.counts.unreadBytes).toBeGreaterThan(0);
    expect(read.counts.problems).toEqual(['line 4: longer than 100 characters (record.line-bytes)']);
  });

  it('starts again from the top of a file that was truncated, and redacts the drill secrets', () => {
    const { file, rec, record, reads } = setup();
    rec.addSecret('tok-0123456789abcdef');
    writeFileSync(file, line({ key: 'k1', phase: 'started', session: 'tok-0123456789abcdef' }));
    record.read('request', 1);
    truncateSync(file, 0);
    writeFileSync(file, line({ key: 'k2', phase: 'started' }));
    record.read('exit');
    const [first, second] = reads();
    expect(first.entries[0].session).toBe('[redacted]');
    expect(second.entries.map((e) => e.key)).toEqual(['k2']);
    expect(second.counts.problems).toEqual(['the file was truncated after 64 bytes']);
  });

  it('reads stderr lines that match, taking what waits in the pipe first at every read', () => {
    let record!: ActivityRecord;
    const waiting: string[] = ['noise\n', 'audit: {"key":"k1","phase":"started"}\n'];
    const drain = () => {
      for (const text of waiting.splice(0)) record.stderr(text);
    };
    const s = setup({ source: { kind: 'stderr', pattern: '^audit: (?<json>.*)$' } }, {}, drain);
    record = s.record;
    record.stderr('audit: {"key":"k0","phase":"result"}\naudit: {"key":');
    record.read('request', 1);
    expect(s.reads()[0].entries.map((e) => `${e.phase} ${e.key}`)).toEqual(['result k0', 'started k1']);
    expect(s.reads()[0].counts).toMatchObject({ lines: 3, other: 1 });
    const [source] = eventsOf(s.rec.evidence(), 'activity-source');
    expect(source).toMatchObject({ kind: 'stderr', pattern: '^audit: (?<json>.*)$' });
  });

  it('parses stderr up to activity-bytes, and counts what comes after unread', () => {
    const s = setup({ source: { kind: 'stderr', pattern: '^(.*)$' } }, { activityBytes: 100 });
    s.record.stderr(line({ key: 'k1', phase: 'started' }));
    s.record.stderr(`${'x'.repeat(120)}\n`);
    s.record.stderr(line({ key: 'k2', phase: 'started' }));
    s.record.read('exit');
    const [read] = s.reads();
    expect(read.entries.map((e) => e.key)).toEqual(['k1']);
    expect(read.counts).toMatchObject({ bytes: 31, unreadBytes: 152 });
  });

  it('reads nothing after its last read', () => {
    const { file, record, reads } = setup();
    record.finish();
    appendFileSync(file, line({ key: 'k1', phase: 'started' }));
    record.read('exit');
    expect(reads().map((r) => r.read)).toEqual(['final']);
  });
});
