/**
 * The fakes that tell the client profiles apart (docs/client-profiles.md), each proven on its
 * one behaviour, and the launcher both ways: the same SIGTERM to the launcher ends the real
 * server behind the one that forwards it and leaves it running behind the one that does not.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ppidOf, startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { identify, isAlive as isRunning } from '../../harness/observe/identity.js';
import { readStat } from '../../harness/observe/proc.js';
import { signalByIdentity } from './support/proc.js';
import { until } from '../support/until.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

describe('launchers', () => {
  it('launcher-forwards-nothing: a SIGTERM ends the launcher alone; the real server runs on', async () => {
    const { subject, helperPid, helper } = await startAndSpawnHelper('launcher-forwards-nothing', janitor);
    const real = janitor.track(identify(ppidOf(helperPid)!))!;
    expect(ppidOf(real.pid)).toBe(subject.pid);

    expect(signalByIdentity(janitor.track(subject.pid)!, 'SIGTERM')).toBe(true);
    expect(await subject.exitWithin(5000)).toMatchObject({ code: null, signal: 'SIGTERM' });
    await until('the real server to be re-parented', () => ppidOf(real.pid) !== subject.pid, 5000);
    expect(isRunning(real)).toBe(true);
    expect(isRunning(helper)).toBe(true);
  });

  it('launcher-forwards-signals: the same SIGTERM reaches the real server, and the launcher exits with it', async () => {
    const { subject, helperPid, helper } = await startAndSpawnHelper('launcher-forwards-signals', janitor);
    const real = janitor.track(identify(ppidOf(helperPid)!))!;

    expect(signalByIdentity(janitor.track(subject.pid)!, 'SIGTERM')).toBe(true);
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    await until('the real server and its helper to end', () => !isRunning(real) && !isRunning(helper), 5000);
  });
});

describe('helpers outside the server group', () => {
  it('helper-own-group: the helper leads a group of its own in the server session and outlives the EOF exit', async () => {
    const { subject, server, helperPid, helper } = await startAndSpawnHelper('helper-own-group', janitor);
    const s = readStat(server.pid)!;
    const h = readStat(helperPid)!;
    expect(h.pgid).toBe(helperPid);
    expect(h.pgid).not.toBe(s.pgid);
    expect(h.sid).toBe(s.sid);

    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(true);
  });

  it('helper-own-session: the helper leads a session of its own and outlives the EOF exit', async () => {
    const { subject, server, helperPid, helper } = await startAndSpawnHelper('helper-own-session', janitor);
    const h = readStat(helperPid)!;
    expect(h.sid).toBe(helperPid);
    expect(h.sid).not.toBe(readStat(server.pid)!.sid);

    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(isRunning(helper)).toBe(true);
  });
});

describe('signal-selective servers', () => {
  it('ignores-sigterm-exits-on-eof: SIGTERM only logs; EOF ends it and its helper', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('ignores-sigterm-exits-on-eof', janitor);
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    await until('the SIGTERM log line', () => subject.stderrText.includes('SIGTERM received'), 5000);
    expect(isRunning(server)).toBe(true);

    subject.closeStdin();
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(subject.exitMark).not.toBeNull();
    await until('its helper to end', () => !isRunning(helper), 5000);
  });

  it('exits-on-sigint-only: EOF and SIGTERM leave it running; SIGINT ends it and its helper', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('exits-on-sigint-only', janitor);
    subject.closeStdin();
    expect(signalByIdentity(server, 'SIGTERM')).toBe(true);
    await until('the SIGTERM log line', () => subject.stderrText.includes('SIGTERM received'), 5000);
    expect(await subject.exitWithin(1000)).toBeNull();

    expect(signalByIdentity(server, 'SIGINT')).toBe(true);
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(subject.exitMark).not.toBeNull();
    await until('its helper to end', () => !isRunning(helper), 5000);
  });
});

describe('a server that notices an abandoning client', () => {
  it('exits-when-idle: with stdin open and quiet it ends its helper and exits 0', async () => {
    const { subject, server, helper } = await startAndSpawnHelper('exits-when-idle', janitor, { FAKE_IDLE_MS: '800' });
    // Nothing closed, nothing signalled: only the quiet ends it.
    expect(await subject.exitWithin(5000)).toMatchObject({ code: 0, signal: null });
    expect(subject.exitMark).not.toBeNull();
    await until('its helper to end', () => !isRunning(helper), 5000);
    expect(isRunning(server)).toBe(false);
  });

  it('well-behaved, the other way: with stdin open and quiet it runs on', async () => {
    const { subject, server } = await startAndSpawnHelper('well-behaved', janitor);
    expect(await subject.exitWithin(2500)).toBeNull();
    expect(isRunning(server)).toBe(true);
  });
});
