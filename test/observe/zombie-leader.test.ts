/**
 * A child whose parent is a zombie thread-group leader belongs to the drill by parent links
 * (harness/observe/membership.ts). When a multi-threaded process (any Node program) exits, its
 * leader shows state Z while the other threads are still exiting, and its children keep it as
 * their parent until the last thread is gone. A daemon launcher that forks and exits at once
 * leaves that window open for tens of milliseconds under load: a fresh scan in it found the
 * daemon by no method (no marker, its own session, its parent "not live"), and a drill that
 * looked for quiet then judged no survivors (seen once as uid 65534, no cgroup). The fixture
 * (fixtures/zombie-leader.py) holds the window open: its main thread exits alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DrillTracker, identify, readStat } from '../../harness/observe/index.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { python3 } from '../support/scenarios.js';
import { until } from '../support/until.js';
import { envWith, FIXTURES, start } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('a zombie leader still in the table', () => {
  it('keeps the child it forked in the drill: found by parent links while the leader is Z', async () => {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    const root = start(cleanup, python3(), [`${FIXTURES}zombie-leader.py`], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
    expect(await root.nextLine()).toBe('ready');
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: null });
    tracker.sampleNow();
    expect(tracker.live().map((p) => p.pid)).toEqual([root.id.pid]);

    root.child.stdin!.write('go\n');
    const [word, pid] = (await root.nextLine()).split(' ');
    expect(word).toBe('child');
    const child = identify(Number(pid))!;
    cleanup.track(child);
    // The main thread exits alone: the leader is a zombie, the process lives on in its other thread.
    await until('the leader to be a zombie', () => readStat(root.id.pid)?.state === 'Z');
    const childStat = readStat(child.pid)!;
    expect(childStat.ppid).toBe(root.id.pid);
    expect(childStat.sid).toBe(child.pid);

    const live = tracker.sampleNow();
    expect(live.map((p) => p.pid)).toEqual([child.pid]);
    expect(tracker.members().find((p) => p.pid === child.pid)?.foundBy).toEqual(['parent-links']);

    root.child.stdin!.write('end\n');
  });
});
