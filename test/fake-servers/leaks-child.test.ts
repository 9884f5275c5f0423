import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ppidOf, startAndSpawnHelper } from './support/drive.js';
import { ProcessJanitor } from './support/janitor.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { findByRunId, signalByIdentity, waitUntil } from './support/proc.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new ProcessJanitor();
beforeAll(ensureBuilt);
afterEach(() => janitor.cleanup());

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
    await waitUntil(() => ppidOf(helperPid) !== server.pid, 5000, 'the helper to be re-parented');
    expect(isRunning(helper)).toBe(true);
    expect(findByRunId(runId)).toEqual([helperPid]);

    // Clean up by identity (pid + start time), and prove it worked.
    expect(signalByIdentity(helper, 'SIGTERM')).toBe(true);
    await waitUntil(() => !isRunning(helper), 5000, 'the leaked helper to die');
    expect(findByRunId(runId)).toEqual([]);
  });
});
