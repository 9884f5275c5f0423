import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { signalByIdentity } from './support/proc.js';
import { until } from '../support/until.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('ignores-sigterm', () => {
  it('survives stdin EOF and SIGTERM, and dies on SIGKILL', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('ignores-sigterm', janitor);
    subject.closeStdin();
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    await until('the SIGTERM log line', () => subject.stderrText.includes('SIGTERM received'), 5000);
    expect(await subject.exitWithin(1000)).toBeNull();
    expect(isRunning(server)).toBe(true);

    expect(signalByIdentity(server, 'SIGKILL')).toBe(true);
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: null, signal: 'SIGKILL' });
    expect(subject.exitMark).toBeNull(); // it did not exit by its own decision
    expect(isRunning(helper)).toBe(true); // orphaned: the janitor ends it by identity
  });
});
