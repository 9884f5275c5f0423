/**
 * The activity-record fakes against a real drill remote, their record read from the file the
 * harness names (CRASH_DRILL_ACTIVITY_FILE): records-activity writes `started` before its
 * request arrives and `result` after the answer, or `unresolved` when its shutdown deadline
 * passes with the request still held; records-after-answer writes both only after the answer;
 * never-ends-actions writes `started` and nothing more.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { DrillRemote } from '../../harness/remote/index.js';
import { tempDir } from '../support/temp-dir.js';
import { correlationMeta, startWithRemote } from './support/remote-subject.js';
import { remoteFixture } from './support/remote-fixture.js';
import type { NodeFake } from './support/subjects.js';

const fixture = remoteFixture();
const { janitor } = fixture;
let remote: DrillRemote;
beforeEach(() => {
  remote = fixture.remote();
});

function recordOf(file: string): Array<{ key: string; phase: string; operation?: string; target?: string; remoteId?: string }> {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Calls write with the request held at the remote's `sent` gate; returns what the record held when it arrived, and the call's answer. */
async function heldWrite(name: NodeFake) {
  const file = join(tempDir(), 'activity.jsonl');
  const { subject, drillId } = await startWithRemote(name, janitor, remote, { env: { CRASH_DRILL_ACTIVITY_FILE: file } });
  const gate = remote.arm({ drillId, point: 'sent' });
  const { correlationId, meta } = correlationMeta();
  const answer = subject.callToolFull('write', { op: 'deploy', target: 'web' }, meta);
  await gate.reached;
  const atArrival = recordOf(file).map((e) => `${e.phase} ${e.key === correlationId ? 'K' : e.key}`);
  return { file, subject, gate, answer, correlationId, atArrival };
}

const phases = (file: string, key: string) => recordOf(file).map((e) => `${e.phase} ${e.key === key ? 'K' : e.key}`);

describe('records-activity', () => {
  it('records started before the request arrives, and the result after the answer', async () => {
    const { file, gate, answer, correlationId, atArrival } = await heldWrite('records-activity');
    expect(atArrival).toEqual(['started K']);
    gate.release('proceed');
    expect((await answer).isError).toBe(false);
    expect(phases(file, correlationId)).toEqual(['started K', 'result K']);
    expect(recordOf(file)[1]).toMatchObject({ operation: 'deploy', target: 'web', remoteId: expect.any(String) });
  });

  it('records the action unresolved when its input closes and the request is still held past its deadline', async () => {
    const { file, subject, gate, answer, correlationId } = await heldWrite('records-activity');
    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0 });
    expect(phases(file, correlationId)).toEqual(['started K', 'unresolved K']);
    await expect(answer).rejects.toThrow(/^the subject exited before answering/);
    gate.release('proceed');
  });
});

describe('records-after-answer', () => {
  it('has nothing in its record while the request is held, and both lines after the answer', async () => {
    const { file, gate, answer, correlationId, atArrival } = await heldWrite('records-after-answer');
    expect(atArrival).toEqual([]);
    gate.release('proceed');
    await answer;
    expect(phases(file, correlationId)).toEqual(['started K', 'result K']);
  });
});

describe('never-ends-actions', () => {
  it('records started before the request, and never its end', async () => {
    const { file, subject, gate, answer, correlationId, atArrival } = await heldWrite('never-ends-actions');
    expect(atArrival).toEqual(['started K']);
    gate.release('proceed');
    await answer;
    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0 });
    expect(phases(file, correlationId)).toEqual(['started K']);
  });
});
