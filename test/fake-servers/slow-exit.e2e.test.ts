import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { signalByIdentity } from './support/proc.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('slow-exit', () => {
  it('with FAKE_EXIT_DELAY_MS=600 is alive at ~300 ms after EOF and gone by ~2 s', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('slow-exit', janitor, { FAKE_EXIT_DELAY_MS: '600' });
    const closedAt = subject.closeStdin();
    expect(await subject.exitWithin(300)).toBeNull();
    expect(isRunning(server)).toBe(true);
    expect(isRunning(helper)).toBe(true); // children are ended only after the delay

    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(2000);
    expect(subject.exitMark! - closedAt).toBeGreaterThanOrEqual(600); // its own clock agrees
    expect(isRunning(helper)).toBe(false);
  });

  it('SIGTERM during the delay ends it at once', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('slow-exit', janitor, { FAKE_EXIT_DELAY_MS: '30000' });
    subject.closeStdin();
    expect(await subject.exitWithin(300)).toBeNull();
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(false);
  });
});
