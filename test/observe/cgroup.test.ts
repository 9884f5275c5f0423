import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupSupport, contain, DrillTracker, findCgroup2Mount, identify, procState, type ProcIdentity } from '../../harness/observe/index.js';
import { Cleanup, envWith, FIXTURES, start, testDrillId } from './helpers.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const support = cgroupSupport();

describe('cgroup support', () => {
  it('finds the cgroup2 mount on hybrid and pure v2 machines, and none on v1-only', () => {
    const hybrid = 'cgroup /sys/fs/cgroup/cpu cgroup rw 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n';
    const pure = 'cgroup2 /sys/fs/cgroup cgroup2 rw,nsdelegate 0 0\n';
    expect(findCgroup2Mount(hybrid)).toBe('/sys/fs/cgroup/unified');
    expect(findCgroup2Mount(pure)).toBe('/sys/fs/cgroup');
    expect(findCgroup2Mount('cgroup /sys/fs/cgroup/cpu cgroup rw 0 0\n')).toBeNull();
  });

  it('answers without throwing and explains itself', () => {
    expect(typeof support.available).toBe('boolean');
    if (support.available) expect(support.root).toMatch(/\/crash-drill$/);
    else expect(support.reason).toBeTruthy();
  });
});

if (!support.available) console.log(`[skip] DrillCgroup: ${support.reason ?? 'no writable cgroup v2'}`);
describe.skipIf(!support.available)('DrillCgroup', () => {
  it('holds added processes and their descendants, reports emptiness by event, and refuses removal while populated', async () => {
    const drillId = testDrillId();
    const cg = cleanup.cgroup(drillId)!;
    expect(existsSync(cg.path)).toBe(true);
    expect(cg.populated()).toBe(false);

    const p = start(cleanup, 'sh', ['-c', 'read go; sleep 300 & echo $!; wait'], { detached: true });
    expect(cg.addPid(p.id)).toBe(true);
    expect(cg.addPid({ pid: p.id.pid, startTime: p.id.startTime + 1 })).toBe(false);
    p.child.stdin!.write('go\n');
    const childId = identify(Number(await p.nextLine()))!;
    cleanup.track(childId);
    expect(cg.pids().sort()).toEqual([p.id.pid, childId.pid].sort());
    expect(cg.populated()).toBe(true);
    expect(cg.remove()).toBe(false);
    expect(existsSync(cg.path)).toBe(true);

    const empty = new Promise<void>((resolve) => cg.onEmpty(resolve));
    expect(cg.kill()).toBe(true);
    await empty;
    expect(cg.populated()).toBe(false);
    expect(procState(childId)).not.toBe('alive');
    expect(cg.remove()).toBe(true);
    expect(existsSync(cg.path)).toBe(false);
  });

  it('lets contain() end a daemon that only the cgroup sees', async () => {
    const drillId = testDrillId();
    const cg = cleanup.cgroup(drillId)!;
    const root = start(
      cleanup,
      'sh',
      ['-c', 'read go; sh -c "setsid env -i /bin/sh -c \\"echo \\\\\\$\\\\\\$; exec /bin/sleep 300\\" & exit 0"; read forever'],
      {
        detached: true,
        env: envWith({ CRASH_DRILL_RUN: drillId }),
      },
    );
    cg.addPid(root.id);
    root.child.stdin!.write('go\n');
    const daemon = identify(Number(await root.nextLine()))!;
    cleanup.track(daemon);
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: cg });
    expect(tracker.sampleNow().map((p) => p.pid)).toContain(daemon.pid);
    expect(tracker.close()).toBe(false); // populated: the kernel keeps it, and so do we
    const records = await contain(tracker, { termWaitMs: 2000 });
    expect(records.find((r) => r.pid === daemon.pid)).toMatchObject({ endedBy: 'SIGTERM' });
    expect(await tracker.waitForQuiet({ timeoutMs: 10_000 })).toBe(true);
    expect(cg.populated()).toBe(false);
    expect(tracker.close()).toBe(true);
    expect(cg.exists()).toBe(false);
  });

  /** Start fixtures/escape.sh as a drill root; returns once the daemon exists and its middle parent is gone. */
  async function escapeTree(drillId: string, adopt: boolean) {
    const cg = cleanup.cgroup(drillId)!;
    const root = start(cleanup, 'sh', [`${FIXTURES}escape.sh`], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
    expect(cg.pids()).toEqual([]);
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: cg, adopt });
    root.child.stdin!.write('go\n');
    let daemon: ProcIdentity | null = null;
    let done = false;
    while (!daemon || !done) {
      const [word, pid] = (await root.nextLine()).split(' ');
      if (word === 'done') done = true;
      else cleanup.track((daemon = identify(Number(pid))));
    }
    return { cg, root, tracker, daemon };
  }

  it('adopts the root into the cgroup when the harness did not, so a later escape is still caught', async () => {
    const { cg, root, tracker, daemon } = await escapeTree(testDrillId(), true);
    expect(cg.pids()).toContain(root.id.pid);
    const found = tracker.sampleNow().find((p) => p.pid === daemon.pid);
    expect(found?.foundBy).toEqual(['cgroup']);
    expect(found?.sid).toBe(daemon.pid);
  });

  it('without adoption the same escape stays invisible', async () => {
    const { cg, root, tracker, daemon } = await escapeTree(testDrillId(), false);
    expect(cg.pids()).toEqual([]);
    expect(tracker.sampleNow().map((p) => p.pid)).toEqual([root.id.pid]);
    expect(procState(daemon)).toBe('alive');
  });
});
