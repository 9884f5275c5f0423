import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ppidOf, startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { findByRunId, signalByIdentity } from './support/proc.js';
import { until } from '../support/until.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('leaks-child', () => {
  it('exits 0 on stdin EOF but leaves its helper running', async () => {
    const { subject, runId, server, helperPid, helper } = await startAndSpawnHelper('leaks-child', janitor);
    expect(ppidOf(helperPid)).toBe(server.pid);

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(subject.exitMark).not.toBeNull();

    // The helper outlives the server, re-parented away from it.
    await until('the helper to be re-parented', () => ppidOf(helperPid) !== server.pid, 5000);
    expect(isRunning(helper)).toBe(true);
    expect(findByRunId(runId)).toEqual([helperPid]);

    // Clean up by identity (pid + start time), and prove it worked.
    expect(signalByIdentity(helper, 'SIGTERM')).toBe(true);
    await until('the leaked helper to die', () => !isRunning(helper), 5000);
    expect(findByRunId(runId)).toEqual([]);
  });
});
