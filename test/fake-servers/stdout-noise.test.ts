import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STDOUT_NOISE_BANNER, STDOUT_NOISE_FIRST_CALL } from '../../fake-servers/lib/noise-lines.js';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('stdout-noise', () => {
  it('writes exactly its banner and one stray line to stdout, otherwise well-behaved', async () => {
    const { subject, helper } = await startAndSpawnHelper('stdout-noise', janitor);
    expect(await subject.callTool('echo', { text: 'second call' })).toBe('second call');
    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(isRunning(helper)).toBe(false);

    expect(subject.nonJsonLines).toEqual([STDOUT_NOISE_BANNER, STDOUT_NOISE_FIRST_CALL]);
    expect(subject.stdoutLines[0]).toBe(STDOUT_NOISE_BANNER); // before any JSON-RPC
    // initialize, tools/list, spawn-helper, echo: four answers, each a JSON-RPC message.
    expect(subject.stdoutLines).toHaveLength(2 + 4);
  });
});
