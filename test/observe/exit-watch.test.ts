import { afterEach, describe, expect, it } from 'vitest';
import { DrillTracker, identify, procState, type ProcIdentity } from '../../harness/observe/index.js';
import { envWith, FIXTURES, start } from './helpers.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { until } from '../support/until.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('watchExit', () => {
  it('sees an unreaped zombie as exited and decodes an exit code and a signal', async () => {
    const drillId = testDrillId();
    const parent = start(cleanup, 'python3', [`${FIXTURES}zombie-parent.py`], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
      env: envWith({ CRASH_DRILL_RUN: drillId }),
    });
    const ids: Record<string, ProcIdentity> = {};
    for (let i = 0; i < 2; i++) {
      const [name, pid] = (await parent.nextLine()).split(' ');
      ids[name!] = identify(Number(pid))!;
      cleanup.track(ids[name!]!);
    }
    const tracker = new DrillTracker({ drillId, root: parent.id });
    expect(tracker.sampleNow().map((p) => p.pid)).toEqual(expect.arrayContaining([ids.exit7!.pid, ids.usr1!.pid]));
    expect(procState(ids.exit7!)).toBe('alive');

    const exits: number[] = [];
    tracker.on('exit', (p) => exits.push(p.pid));
    const watching = [tracker.watchExit(ids.exit7!), tracker.watchExit(ids.usr1!)];
    (parent.child.stdio[3] as NodeJS.WritableStream).write('gg');
    const [exit7, usr1] = await Promise.all(watching);

    expect(exit7).toMatchObject({ how: 'zombie', exitStatus: { code: 7, signal: null } });
    expect(usr1).toMatchObject({ how: 'zombie', exitStatus: { code: null, signal: 'SIGUSR1' } });
    // Still zombies (nobody reaps them): the kernel keeps the entry, and it is not alive.
    expect(procState(ids.exit7!)).toBe('zombie');
    expect(exits).toEqual(expect.arrayContaining([ids.exit7!.pid, ids.usr1!.pid]));
    const member = tracker.members().find((m) => m.pid === ids.exit7!.pid)!;
    expect(member.exitedAt).toBe(exit7!.t);
    expect(member.exitStatus).toEqual({ code: 7, signal: null });
    expect(tracker.live().map((p) => p.pid)).toEqual([parent.id.pid]);
  });

  it("reports 'gone' for a reaped process and keeps waiting while one lives", async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    const tracker = new DrillTracker({ drillId: testDrillId(), root: p.id });
    let settled = false;
    const watching = tracker.watchExit(p.id).then((o) => {
      settled = true;
      return o;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    const reaped = new Promise((r) => p.child.once('exit', r));
    p.child.kill('SIGTERM');
    const obs = await watching;
    expect(['gone', 'zombie']).toContain(obs.how);
    await reaped;
    const again = await tracker.watchExit(p.id);
    expect(again.how).toBe('gone');
    expect(again.exitStatus).toBeUndefined();
  });

  it('measures exit-detection latency over 15 exits (npm run bench measures it on whole drills)', async () => {
    const script = "process.stdin.once('data', () => { require('fs').writeSync(1, String(Number(process.hrtime.bigint()) / 1e6) + '\\n'); process.exit(0); });";
    const latencies: number[] = [];
    for (let i = 0; i < 15; i++) {
      const p = start(cleanup, process.execPath, ['-e', script]);
      const tracker = new DrillTracker({ drillId: testDrillId(), root: p.id });
      const watching = tracker.watchExit(p.id);
      p.child.stdin!.write('go\n');
      const [line, obs] = await Promise.all([p.nextLine(), watching]);
      const childT = Number(line);
      expect(obs.t).toBeGreaterThan(childT);
      latencies.push(obs.t - childT);
    }
    latencies.sort((a, b) => a - b);
    const median = latencies[7]!;
    const p90 = latencies[13]!;
    console.log(
      `[observe] exit detection latency over 15 exits: median ${median.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, max ${latencies[14]!.toFixed(2)} ms`,
    );
    // Generous: the poll is every 2 ms, the rest is Node's own exit path on a loaded machine.
    expect(median).toBeLessThan(50);
  });
});

describe('tracker events and quiet', () => {
  it("emits 'new' and 'exit' while sampling, and waitForQuiet answers both ways", async () => {
    const drillId = testDrillId();
    const root = start(cleanup, 'sh', ['-c', 'read go; sleep 300 & echo $!; read forever'], {
      detached: true,
      env: envWith({ CRASH_DRILL_RUN: drillId }),
    });
    const tracker = new DrillTracker({ drillId, root: root.id, sampleIntervalMs: 10 }).start();
    try {
      const seenNew = new Promise<number>((resolve) => tracker.on('new', (p) => resolve(p.pid)));
      root.child.stdin!.write('go\n');
      const childPid = Number(await root.nextLine());
      expect(await seenNew).toBe(childPid);
      // A sample may catch the fork before its exec (argv still the shell's); the tracker re-reads
      // argv while a member is young and when its comm changes, so the exec'd argv follows.
      const child = await until("the child's argv after its exec", () => tracker.members().find((m) => m.pid === childPid && m.cmdline[0] === 'sleep'), 5000);
      expect(child.cmdline).toEqual(['sleep', '300']);
      expect(child.firstSeen).toBeGreaterThan(0);

      expect(await tracker.waitForQuiet({ exclude: [root.id], timeoutMs: 150 })).toBe(false);

      const seenExit = new Promise<number>((resolve) => tracker.on('exit', (p) => resolve(p.pid)));
      const quiet = tracker.waitForQuiet({ exclude: [root.id], timeoutMs: 20_000 });
      process.kill(childPid, 'SIGTERM');
      expect(await seenExit).toBe(childPid);
      expect(await quiet).toBe(true);
      expect(tracker.members().find((m) => m.pid === childPid)!.exitedAt).not.toBeNull();
      expect(tracker.live().map((p) => p.pid)).toEqual([root.id.pid]);
      const { samples, meanMs } = tracker.sampleStats();
      expect(samples).toBeGreaterThan(1);
      expect(meanMs).toBeGreaterThan(0);
    } finally {
      tracker.stop();
    }
  });
});
