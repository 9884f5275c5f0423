import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAndSpawnHelper } from './support/drive.js';
import { Cleanup } from '../support/cleanup.js';
import { isAlive as isRunning } from '../../harness/observe/identity.js';
import { readCmdline, readEnviron, readStat } from '../../harness/observe/proc.js';
import { ancestorsOf, findByRunId } from './support/proc.js';
import { until } from '../support/until.js';
import { ensureBuilt } from './support/subjects.js';

const janitor = new Cleanup();
beforeAll(ensureBuilt);
afterEach(() => janitor.run());

/** init, or a subreaper: a subreaper can only be an ancestor of the server, i.e. of this test. */
function isReaper(pid: number): boolean {
  return pid === 1 || ancestorsOf(process.pid).includes(pid);
}

describe('daemonizes', () => {
  it('leaves a daemon re-parented to init (or a subreaper) in its own session', async () => {
    const { subject, runId, server, helperPid: daemonPid, helper: daemon } = await startAndSpawnHelper('daemonizes', janitor);
    const serverStat = readStat(server.pid)!;
    await until('the daemon to be re-parented', () => isReaper(readStat(daemonPid)?.ppid ?? -1), 5000);
    const daemonStat = readStat(daemonPid)!;
    expect(daemonStat.ppid).not.toBe(server.pid);
    expect(daemonStat.sid).toBe(daemonPid); // it called setsid: leader of its own session
    expect(daemonStat.sid).not.toBe(serverStat.sid);
    expect(daemonStat.pgid).not.toBe(serverStat.pgid);
    expect(readEnviron(daemonPid)?.get('CRASH_DRILL_RUN')).toBe(runId); // findable by the marker

    const closedAt = subject.closeStdin();
    const exit = await subject.exitWithin(5000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.at - closedAt).toBeLessThan(1000);
    expect(isRunning(daemon)).toBe(true); // the server did not end it
    expect(findByRunId(runId)).toEqual([daemonPid]);
  });

  it('with FAKE_DAEMON_CLEAR_ENV=1 the daemon has an empty environment', async () => {
    const {
      subject,
      runId,
      helperPid: daemonPid,
      helper: daemon,
    } = await startAndSpawnHelper('daemonizes', janitor, {
      FAKE_DAEMON_CLEAR_ENV: '1',
    });
    // Until it has exec'd, a fresh fork still shows its parent's environment: wait for the exec.
    await until('the daemon to exec', () => readCmdline(daemonPid)?.join('\0').includes('helper') ?? false, 5000);
    expect(readEnviron(daemonPid)).toEqual(new Map());
    expect(readStat(daemonPid)?.sid).toBe(daemonPid);
    subject.closeStdin();
    expect((await subject.exitWithin(5000))?.code).toBe(0);
    expect(isRunning(daemon)).toBe(true);
    // The launcher (the double fork's middle process) carries the marker until it has exited.
    await until('the daemon launcher to exit', () => findByRunId(runId).length === 0, 5000);
    expect(isRunning(daemon)).toBe(true);
    expect(findByRunId(runId)).toEqual([]); // the marker scan misses the daemon: only a cgroup would not
  });
});
