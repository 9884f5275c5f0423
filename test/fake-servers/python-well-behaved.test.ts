import { afterEach, describe, expect, it } from 'vitest';
import { ppidOf, startAndSpawnHelper, startTracked } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { readEnviron } from '../../harness/observe/proc.js';
import { findByRunId, signalByIdentity } from './support/proc.js';
import { until } from '../support/until.js';

const janitor = new Cleanup();
afterEach(() => janitor.run());

describe('python/well-behaved.py', () => {
  it('exits 0 within 1 s of stdin EOF and ends its helper', async () => {
    const { subject, runId, server, helperPid, helper } = await startAndSpawnHelper('python/well-behaved', janitor);
    expect(ppidOf(helperPid)).toBe(server.pid);
    // Right after fork, /proc/PID/environ can read empty until exec completes: wait for it.
    await until('the helper to carry the drill id', () => readEnviron(helperPid)?.get('CRASH_DRILL_RUN') === runId, 5000);
    expect(await subject.callTool('subscribe')).toBe('subscribed'); // a live timer does not hold it

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(isRunning(helper)).toBe(false);
    expect(findByRunId(runId)).toEqual([]);
    // time.monotonic() and Node's hrtime read the same CLOCK_MONOTONIC.
    expect(subject.exitMark).not.toBeNull();
    expect(subject.exitMark!).toBeGreaterThanOrEqual(closedAt);
    expect(subject.exitMark!).toBeLessThanOrEqual(exit!.at);
    expect(subject.nonJsonLines).toEqual([]);
  });

  it('handles SIGTERM the same way', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('python/well-behaved', janitor);
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(false);
    expect(subject.exitMark).not.toBeNull();
  });

  it('negotiates the protocol version and answers ping and unknown methods', async () => {
    const { subject } = await startTracked('python/well-behaved', janitor);
    const accepted = await subject.handshake('2025-03-26');
    expect(accepted).toMatchObject({ protocolVersion: '2025-03-26', serverInfo: { name: 'py-well-behaved' } });
    expect(accepted.capabilities).toHaveProperty('tools');
    const fallback = await subject.request('initialize', { protocolVersion: '1999-01-01', capabilities: {} });
    expect(fallback.result?.protocolVersion).toBe('2025-06-18');
    expect((await subject.request('ping')).result).toEqual({});
    expect((await subject.request('resources/list')).error?.code).toBe(-32601);
    subject.closeStdin();
    expect((await subject.exitWithin(5000))?.code).toBe(0);
  });
});
