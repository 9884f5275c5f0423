import { afterEach, describe, expect, it } from 'vitest';
import { cgroupSupport, DrillTracker, identify, type TrackedProcess } from '../../harness/observe/index.js';
import { readStat } from '../../harness/observe/index.js';
import { envWith, FIXTURES, start, type Proc } from './helpers.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { until } from '../support/until.js';

const stateOfComm = (pid: number): string | undefined => readStat(pid)?.comm;

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type Tree = { root: Proc; pids: Record<string, number> };

/** Start fixtures/tree.sh as a drill root (own session, like the drill client) and build the tree. */
async function buildTree(drillId: string, withCgroup: boolean): Promise<Tree & { cgroupPath: string | null }> {
  if (!withCgroup) cleanup.trackDrill(drillId);
  const cg = withCgroup ? cleanup.cgroup(drillId) : null;
  const root = start(cleanup, 'sh', [`${FIXTURES}tree.sh`], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
  if (withCgroup) expect(cg!.addPid(root.id)).toBe(true);
  root.child.stdin!.write('go\n');
  const pids: Record<string, number> = {};
  for (;;) {
    const line = await root.nextLine();
    if (line === 'ready') break;
    const [name, pid] = line.split(' ');
    pids[name!] = Number(pid);
    cleanup.track(identify(Number(pid)));
  }
  // The two daemons print from their own process, possibly after "ready".
  while (!('daemon-env' in pids && 'daemon-noenv' in pids)) {
    const [name, pid] = (await root.nextLine()).split(' ');
    pids[name!] = Number(pid);
    cleanup.track(identify(Number(pid)));
  }
  // Each leaf prints before it execs sleep: wait for the exec, so argv is final when we sample.
  await until('the leaves to exec sleep', () => Object.values(pids).every((pid) => stateOfComm(pid) === 'sleep'));
  return { root, pids, cgroupPath: cg?.path ?? null };
}

function byPid(members: TrackedProcess[], pid: number): TrackedProcess | undefined {
  return members.find((m) => m.pid === pid);
}

describe('DrillTracker membership', () => {
  it('finds a child, an orphaned grandchild and a setsid daemon without a cgroup, and says what it cannot see', async () => {
    const drillId = testDrillId();
    const { root, pids } = await buildTree(drillId, false);
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: null });
    tracker.sampleNow();
    const members = tracker.members();

    expect(byPid(members, root.id.pid)!.foundBy).toEqual(['root']);
    const child = byPid(members, pids.child!)!;
    expect(child.foundBy).toEqual(expect.arrayContaining(['parent-links', 'env-marker', 'process-group', 'session']));

    // Its middle parent exited: no parent link, but the marker, the group and the session remain.
    const grandchild = byPid(members, pids.grandchild!)!;
    expect(grandchild.ppid).not.toBe(root.id.pid);
    expect(grandchild.foundBy).toEqual(expect.arrayContaining(['env-marker', 'process-group', 'session']));
    expect(grandchild.foundBy).not.toContain('parent-links');

    // A new session and an orphan: only the inherited marker finds it.
    const daemon = byPid(members, pids['daemon-env']!)!;
    expect(daemon.sid).toBe(daemon.pid);
    expect(daemon.foundBy).toEqual(['env-marker']);

    // setsid + cleared environment + orphaned: invisible without a cgroup.
    expect(byPid(members, pids['daemon-noenv']!)).toBeUndefined();
    const info = tracker.tracking();
    expect(info.cgroup).toBeNull();
    expect(info.methods).not.toContain('cgroup');
    expect(info.blindSpots.join('\n')).toMatch(/setsid and clears its environment/);
  });

  if (!cgroupSupport().available) console.log(`[skip] tracker with a drill cgroup: ${cgroupSupport().reason ?? 'no writable cgroup v2'}`);
  it.skipIf(!cgroupSupport().available)('with the drill cgroup also finds the daemon that cleared its environment', async () => {
    const drillId = testDrillId();
    const { root, pids, cgroupPath } = await buildTree(drillId, true);
    const cg = (await import('../../harness/observe/index.js')).createDrillCgroup(drillId)!;
    expect(cg.path).toBe(cgroupPath);
    const withCgroup = new DrillTracker({ drillId, root: root.id, cgroup: cg });
    const without = new DrillTracker({ drillId, root: root.id, cgroup: null });
    withCgroup.sampleNow();
    without.sampleNow();

    const noenv = byPid(withCgroup.members(), pids['daemon-noenv']!)!;
    expect(noenv).toBeDefined();
    expect(noenv.foundBy).toEqual(['cgroup']);
    expect(noenv.cmdline).toEqual(['/bin/sleep', '300']);
    expect(byPid(without.members(), pids['daemon-noenv']!)).toBeUndefined();
    for (const name of ['child', 'grandchild', 'daemon-env']) {
      expect(byPid(withCgroup.members(), pids[name]!)!.foundBy).toContain('cgroup');
    }
    expect(withCgroup.live()).toHaveLength(5);
    expect(without.live()).toHaveLength(4);
    const info = withCgroup.tracking();
    expect(info.methods).toContain('cgroup');
    expect(info.cgroup).toBe(cgroupPath);
    expect(info.blindSpots.join('\n')).not.toMatch(/clears its environment/);
  });

  it("ignores processes carrying another drill's marker", async () => {
    const drillId = testDrillId(1);
    const root = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const others = [`${drillId.slice(0, -2)}.2`, `${drillId}0`, `x${drillId}`, ''].map((marker) =>
      start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: marker }) }),
    );
    const same = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const tracker = new DrillTracker({ drillId, root: root.id });
    const live = tracker.sampleNow().map((p) => p.pid);
    expect(live).toContain(root.id.pid);
    expect(live).toContain(same.id.pid);
    for (const o of others) expect(live).not.toContain(o.id.pid);
    expect(live).toHaveLength(2);
  });

  it('never counts a process that started before the root', async () => {
    const drillId = testDrillId();
    const older = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    // Start times have 10 ms resolution: wait until the clock has moved on by a tick.
    const { startTimeToMono } = await import('../../harness/observe/index.js');
    const { monoNow } = await import('../../harness/util/clock.js');
    while (monoNow() < startTimeToMono(older.id.startTime) + 30) await new Promise((r) => setTimeout(r, 10));
    const root = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    expect(root.id.startTime).toBeGreaterThan(older.id.startTime);
    const tracker = new DrillTracker({ drillId, root: root.id });
    expect(tracker.sampleNow().map((p) => p.pid)).toEqual([root.id.pid]);
  });
});

describe('DrillTracker.sampleNew', () => {
  it('finds the same members as a full sample, and sees one exit', async () => {
    const drillId = testDrillId();
    const { root, pids } = await buildTree(drillId, false);
    const full = new DrillTracker({ drillId, root: root.id, cgroup: null });
    const partial = new DrillTracker({ drillId, root: root.id, cgroup: null });
    full.sampleNow();
    partial.sampleNew();
    const view = (t: DrillTracker) =>
      t
        .members()
        .map((m) => `${m.pid} ${[...m.foundBy].sort().join(',')} ${m.cmdline.join(' ')}`)
        .sort();
    expect(view(partial)).toEqual(view(full));
    expect(view(partial).length).toBeGreaterThan(3);
    const daemon = pids['daemon-env']!;
    process.kill(daemon, 'SIGKILL');
    await until('the daemon to be gone or a zombie', () => (readStat(daemon)?.state ?? 'Z') === 'Z');
    expect(byPid(partial.sampleNew(), daemon)).toBeUndefined();
    expect(byPid(partial.members(), daemon)!.exitedAt).not.toBeNull();
  });
});

describe('DrillTracker exec', () => {
  it('a member first read before its exec is reported again with what it runs after it, once', async () => {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    // The child prints its pid, then execs sleep only when the test says so (fd 3 is the root's stdin).
    const root = start(cleanup, 'sh', ['-c', `exec 3<&0; sh -c 'echo child $$; read x <&3; exec sleep 300' & wait`], {
      detached: true,
      env: envWith({ CRASH_DRILL_RUN: drillId }),
    });
    const pid = Number((await root.nextLine()).split(' ')[1]);
    cleanup.track(identify(pid));
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: null });
    const execs: TrackedProcess[] = [];
    tracker.on('exec', (p) => execs.push(p));
    tracker.sampleNow();
    const before = { argv: byPid(tracker.members(), pid)?.cmdline.slice(0, 2), execs: execs.length };
    root.child.stdin!.write('go\n');
    await until('the child to exec sleep', () => stateOfComm(pid) === 'sleep');
    tracker.sampleNow();
    tracker.sampleNow();
    // One object, so a failure shows the whole story.
    expect({ before, execs: execs.map((p) => ({ pid: p.pid, cmdline: p.cmdline })) }).toEqual({
      before: { argv: ['sh', '-c'], execs: 0 },
      execs: [{ pid, cmdline: ['sleep', '300'] }],
    });
  });
});

describe('DrillTracker cost', () => {
  it('measures one full sample of /proc', async () => {
    const drillId = testDrillId();
    const root = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const tracker = new DrillTracker({ drillId, root: root.id });
    tracker.sampleNow(); // warm the caches, as a running tracker would be
    const { listPids } = await import('../../harness/observe/index.js');
    const { monoNow } = await import('../../harness/util/clock.js');
    const n = 200;
    const cpu0 = process.cpuUsage();
    const t0 = monoNow();
    for (let i = 0; i < n; i++) tracker.sampleNow();
    const wallMs = (monoNow() - t0) / n;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000 / n;
    console.log(
      `[observe] full sample: ${wallMs.toFixed(3)} ms wall, ${cpuMs.toFixed(3)} ms CPU, mean over ${n} samples with ${listPids().length} processes on the machine`,
    );
    expect(tracker.live().map((p) => p.pid)).toEqual([root.id.pid]);
    // CPU time, not wall time: other test runs share the 2 cores. It must stay well under the 20 ms interval.
    expect(cpuMs).toBeLessThan(15);
  });
});

describe('DrillTracker.waitForQuiet', () => {
  /** A drill of one sleep, sampled only every minute: nothing but recheckQuiet can end the wait early. */
  async function oneSleeper() {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    const root = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: null, sampleIntervalMs: 60_000 });
    tracker.sampleNow();
    const exited = new Promise((resolve) => root.child.once('exit', resolve));
    const quiet = tracker.waitForQuiet({ timeoutMs: 30_000 });
    let settled = false;
    void quiet.then(() => (settled = true));
    root.child.kill('SIGKILL');
    await exited;
    return { tracker, quiet, settled: () => settled };
  }

  it('ends as soon as recheckQuiet is told of an exit, not at the next tick', async () => {
    const { tracker, quiet } = await oneSleeper();
    tracker.recheckQuiet();
    expect(await quiet).toBe(true);
  });

  it('without recheckQuiet (and without a cgroup) it waits for the next tick', async () => {
    const { tracker, quiet, settled } = await oneSleeper();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled()).toBe(false);
    // Told now, it ends: the wait was pending, not lost.
    tracker.recheckQuiet();
    expect(await quiet).toBe(true);
  });
});
