import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { findByRunId, signalByIdentity } from './support/proc.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('ignores-eof', () => {
  it('is still alive 1 s after stdin EOF; SIGTERM then ends it and its helper', async () => {
    const { subject, runId, server, helper } = await startAndSpawnHelper('ignores-eof', janitor);
    subject.closeStdin();
    // A negative claim needs a waiting period: well-behaved is gone well within this time.
    expect(await subject.exitWithin(1000)).toBeNull();
    expect(isRunning(server)).toBe(true);
    expect(isRunning(helper)).toBe(true);
    expect(subject.exitMark).toBeNull();

    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(false); // only its own non-exit is at fault
    expect(findByRunId(runId)).toEqual([]);
  });
});
