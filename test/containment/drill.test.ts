import { afterEach, describe, expect, it } from 'vitest';
import { DrillTracker, identify, procState, type ProcIdentity } from '../../harness/observe/index.js';
import { envWith, FIXTURES, start, stateOf } from '../observe/helpers.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { until } from '../support/until.js';
import { describeStep } from '../../harness/containment/step.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { containDrill } from '../../harness/containment/drill.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('signalIdentity', () => {
  it('signals only the exact identity, and says why it did not', async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    expect(signalIdentity({ pid: p.id.pid, startTime: p.id.startTime + 1 }, 'SIGKILL')).toBe('mismatch');
    expect(procState(p.id)).toBe('alive');
    const exited = new Promise((r) => p.child.once('exit', r));
    expect(signalIdentity(p.id, 'SIGTERM')).toBe('sent');
    await exited;
    expect(signalIdentity(p.id, 'SIGTERM')).toBe('gone');

    const parent = start(cleanup, 'sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 300']);
    const zombie = identify(Number(await parent.nextLine()))!;
    cleanup.track(zombie);
    await until('the zombie', () => stateOf(zombie.pid) === 'Z');
    expect(signalIdentity(zombie, 'SIGKILL')).toBe('zombie');
  });
});

describe('contain', () => {
  it('ends SIGTERM-ignoring, stopped and respawning members, forcing only where needed', async () => {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    const root = start(cleanup, 'sh', [`${FIXTURES}contain-tree.sh`], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const ids: Record<string, ProcIdentity> = {};
    let ready = false;
    while (!ready || Object.keys(ids).length < 4) {
      const [name, pid] = (await root.nextLine()).split(' ');
      if (name === 'ready') ready = true;
      else cleanup.track((ids[name!] = identify(Number(pid))!));
    }
    await until('the stopped member', () => stateOf(ids.stopped!.pid) === 'T');
    // A bystander outside the drill, and a member we exclude: both must be left alone.
    const bystander = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    const excluded = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillId }) });

    const tracker = new DrillTracker({ drillId, root: root.id });
    // 6 named members, plus the spawner's short `sleep 0.05` when a sample catches one.
    const live = tracker.sampleNow().map((p) => p.pid);
    for (const id of [root.id, excluded.id, ...Object.values(ids)]) expect(live).toContain(id.pid);
    const records = await containDrill(tracker, { exclude: [excluded.id], termWaitMs: 1500, killWaitMs: 5000 });
    const rec = (id: ProcIdentity) => records.find((r) => r.pid === id.pid && r.startTime === id.startTime)!;

    expect(rec(ids.ignores!)).toMatchObject({ endedBy: 'SIGKILL', forced: true });
    expect(rec(ids.ignores!).steps.map(describeStep)).toEqual(expect.arrayContaining(['SIGTERM: sent', 'SIGKILL: sent', 'exited (zombie, signal SIGKILL)']));
    expect(rec(ids.plain!)).toMatchObject({ endedBy: 'SIGTERM', forced: false });
    expect(rec(ids.stopped!)).toMatchObject({ endedBy: 'SIGTERM', forced: false });
    // Event-driven: SIGTERM's victims are seen exiting long before the 1.5 s wait for the stubborn one ends.
    const exitedAt = (id: ProcIdentity) => rec(id).steps.find((s) => describeStep(s).startsWith('exited'))!.t;
    expect(exitedAt(ids.plain!)).toBeLessThan(exitedAt(ids.ignores!) - 500);
    expect(rec(ids.stopped!).steps.map(describeStep)).toContain('SIGCONT (it was stopped): sent');
    expect(rec(root.id)).toMatchObject({ endedBy: 'SIGTERM', forced: false });
    expect(rec(ids.spawner!)).toMatchObject({ endedBy: 'SIGTERM', forced: false });
    // The spawner's trap started `sleep 299` while dying: a later round found and ended it.
    const late = records.find((r) => r.cmdline.join(' ') === 'sleep 299');
    expect(late).toMatchObject({ endedBy: 'SIGTERM', forced: false });
    for (const r of records) {
      expect(r.steps.length).toBeGreaterThan(0);
      expect(r.steps.every((s, i) => i === 0 || s.t >= r.steps[i - 1]!.t)).toBe(true);
      expect(procState(r)).not.toBe('alive');
    }
    expect(records.length).toBeGreaterThanOrEqual(6);
    expect(records.find((r) => r.pid === excluded.id.pid)).toBeUndefined();
    expect(procState(excluded.id)).toBe('alive');
    expect(procState(bystander.id)).toBe('alive');
    expect(tracker.live().map((p) => p.pid)).toEqual([excluded.id.pid]);
  });

  it('returns no records when nothing lives', async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    const exited = new Promise((r) => p.child.once('exit', r));
    p.child.kill('SIGKILL');
    await exited;
    const tracker = new DrillTracker({ drillId: testDrillId(), root: p.id });
    expect(await containDrill(tracker)).toEqual([]);
  });
});
