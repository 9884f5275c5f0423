import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { readEnviron } from '../../harness/observe/proc.js';
import { findByRunId, signalByIdentity } from './support/proc.js';
import { until } from '../support/until.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('well-behaved', () => {
  it('exits 0 within 1 s of stdin EOF and ends its helper', async () => {
    const { subject, runId, server, helperPid, helper } = await startAndSpawnHelper('well-behaved', janitor);
    expect(isRunning(helper)).toBe(true);
    // Right after fork, /proc/PID/environ can read empty until exec completes: wait for it.
    await until('the helper to carry the drill id', () => readEnviron(helperPid)?.get('CRASH_DRILL_RUN') === runId, 5000);

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(isRunning(server)).toBe(false);
    expect(isRunning(helper)).toBe(false); // ended before the server exited, not by the janitor
    expect(findByRunId(runId)).toEqual([]);

    const mark = subject.exitMark;
    expect(mark).not.toBeNull();
    expect(mark!).toBeGreaterThanOrEqual(closedAt);
    expect(mark!).toBeLessThanOrEqual(exit!.at);
    expect(subject.nonJsonLines).toEqual([]); // stdout is clean, unlike stdout-noise
  });

  it('still exits on EOF with a live subscription (the SDK alone would not)', async () => {
    const { subject, helper } = await startAndSpawnHelper('well-behaved', janitor);
    expect(await subject.callTool('subscribe')).toBe('subscribed');
    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit?.code).toBe(0);
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(isRunning(helper)).toBe(false);
  });

  it('handles SIGTERM the same way: ends its helper and exits 0', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('well-behaved', janitor);
    expect(await subject.callTool('subscribe')).toBe('subscribed');
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(false);
    expect(subject.stderrText).toContain('shutting down (SIGTERM)');
    expect(subject.exitMark).not.toBeNull();
  });

  it('shuts down on a stdout EPIPE while stdin stays open', async () => {
    const { subject, helper } = await startAndSpawnHelper('well-behaved', janitor);
    // Close our read end of its stdout: its next write fails with EPIPE.
    subject.child.stdout?.destroy();
    await until('stdout to close', () => subject.child.stdout?.destroyed === true, 5000);
    subject.send({ id: 99, method: 'ping' });
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(subject.stderrText).toContain('shutting down (stdout EPIPE)');
    expect(isRunning(helper)).toBe(false);
  });

  it('acts on a spawn-helper call that arrived right before EOF, then ends that helper too', async () => {
    const { subject, runId } = await startAndSpawnHelper('well-behaved', janitor);
    // Written in the same tick as the EOF, so the server reads the call and the EOF together.
    subject.send({ id: 50, method: 'tools/call', params: { name: 'spawn-helper', arguments: {} } });
    subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit?.code).toBe(0);
    const answer = subject.stdoutLines.find((line) => line.includes('"id":50'));
    expect(answer).toMatch(/helper \d+/); // the late call was acted on
    expect(findByRunId(runId)).toEqual([]); // and both helpers are gone
  });
});
