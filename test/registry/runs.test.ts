import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { drillIdFor, harnessMark, identify, newRunId, procState, runIdOf, type ProcIdentity } from '../../harness/observe/index.js';
import { isRunLive, registerRun, runsDir, sweepStale } from '../../harness/registry/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { tempDir } from '../support/temp-dir.js';
import { envWith, start } from '../observe/helpers.js';
import { Cleanup } from '../support/cleanup.js';

const cleanup = new Cleanup();
const registrations: { unregister(): void }[] = [];
afterEach(async () => {
  for (const r of registrations.splice(0)) r.unregister();
  await cleanup.run();
});

describe('run ids', () => {
  it('makes run ids and drill ids that round-trip', () => {
    const runId = newRunId(new Date('2026-11-29T09:45:12Z'));
    expect(runId).toMatch(/^cd-20261129T094512-[0-9a-f]{6}$/);
    expect(newRunId()).not.toBe(newRunId());
    expect(drillIdFor(runId, 3)).toBe(`${runId}.3`);
    expect(runIdOf(drillIdFor(runId, 3))).toBe(runId);
  });

  it('registers a run as live while this process lives, and unregisters it', () => {
    const runId = newRunId();
    expect(isRunLive(runId)).toBe(false);
    const reg = registerRun(runId);
    registrations.push(reg);
    expect(isRunLive(runId)).toBe(true);
    reg.unregister();
    expect(isRunLive(runId)).toBe(false);
    expect(() => registerRun('../escape')).toThrow(expect.objectContaining({ code: 'OBSERVE_BAD_RUN_ID' }));
  });

  it('a registration is made 0600 and believed only as a regular file of ours: a symlink to a live one is not', () => {
    const live = newRunId();
    registrations.push(registerRun(live));
    const file = join(runsDir(), `${live}.json`);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    const other = newRunId();
    const planted = join(runsDir(), `${other}.json`);
    symlinkSync(file, planted);
    try {
      expect(isRunLive(other)).toBe(false);
      // The same text as a regular file of ours is a live registration.
      unlinkSync(planted);
      writeFileSync(planted, readFileSync(file), { mode: 0o600 });
      expect(isRunLive(other)).toBe(true);
    } finally {
      rmSync(planted, { force: true });
    }
  });
});

describe('sweepStale', () => {
  it('from a harness with another TMPDIR leaves a live run alone: the registry does not follow TMPDIR', async () => {
    const live = newRunId();
    cleanup.trackDrill(drillIdFor(live, 1));
    registrations.push(registerRun(live));
    const drill = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(live, 1) }) });
    const other = tempDir('crash-drill-other-tmp-');
    const observe = pathToFileURL(join(packageRoot(), 'dist/harness/registry/index.js')).href;
    const script = `import(${JSON.stringify(observe)}).then(async (m) => { const rows = await m.sweepStale({ runFilter: (id) => id === ${JSON.stringify(live)}, termWaitMs: 300 }); console.log(JSON.stringify({ dir: m.runsDir(), rows })); })`;
    const { stdout, status } = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: other }, encoding: 'utf8' });
    expect(status).toBe(0);
    const out = JSON.parse(stdout) as { dir: string; rows: unknown[] };
    expect(out.dir).toBe(runsDir());
    expect(out.rows).toEqual([]);
    expect(procState(drill.id)).toBe('alive');
  });

  it('a run registered where this harness does not look is judged by the harness its processes name: left alone while it lives, ended once it is dead', async () => {
    // Another harness of the user's with another CRASH_DRILL_REGISTRY or XDG_RUNTIME_DIR: no
    // registration here, but its drill processes carry its identity (CRASH_DRILL_HARNESS).
    const foreign = newRunId();
    const unmarked = newRunId();
    for (const run of [foreign, unmarked]) cleanup.trackDrill(drillIdFor(run, 1));
    const harness = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    const drill = start(cleanup, 'sleep', ['300'], {
      detached: true,
      stdio: 'ignore',
      env: envWith({ CRASH_DRILL_RUN: drillIdFor(foreign, 1), CRASH_DRILL_HARNESS: harnessMark(harness.id) }),
    });
    // The same without the mark (an earlier version's drill): no registration, so a dead run's.
    const old = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(unmarked, 1) }) });
    expect(isRunLive(foreign)).toBe(false);

    const first = await sweepStale({ runFilter: (r) => r === foreign || r === unmarked, termWaitMs: 500 });
    expect(first.map((r) => [r.drillId, r.pid])).toEqual([[drillIdFor(unmarked, 1), old.id.pid]]);
    expect(procState(drill.id)).toBe('alive');

    const gone = new Promise((r) => harness.child.once('exit', r));
    harness.child.kill('SIGKILL');
    await gone;
    const second = await sweepStale({ runFilter: (r) => r === foreign, termWaitMs: 500 });
    expect(second.map((r) => [r.drillId, r.pid, r.endedBy])).toEqual([[drillIdFor(foreign, 1), drill.id.pid, 'SIGTERM']]);
    expect(procState(drill.id)).not.toBe('alive');
  });

  it("ends processes of dead runs and leaves a live run's alone", async () => {
    // Every run starts out live, so that no other harness on the machine (another test file's
    // run sweeps at start-up) takes our processes; the two "dead" runs die just before our sweep.
    const unregistered = newRunId();
    const deadHarness = newRunId();
    const live = newRunId();
    for (const run of [unregistered, deadHarness, live]) cleanup.trackDrill(drillIdFor(run, 1));
    const unregisteredReg = registerRun(unregistered);
    registrations.push(unregisteredReg, registerRun(live));
    // A stand-in harness for deadHarness: its registry file names a process we will kill.
    const harness = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    mkdirSync(runsDir(), { recursive: true });
    const deadFile = join(runsDir(), `${deadHarness}.json`);
    writeFileSync(deadFile, JSON.stringify({ runId: deadHarness, pid: harness.id.pid, startTime: harness.id.startTime }));
    expect(isRunLive(deadHarness)).toBe(true);

    const orphanA = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(unregistered, 1) }) });
    // Ignores SIGTERM (the ignored disposition survives exec): needs the SIGKILL. "ok" comes once the trap is set.
    const orphanB = start(cleanup, 'sh', ['-c', 'trap "" TERM; echo ok; exec sleep 300'], {
      detached: true,
      env: envWith({ CRASH_DRILL_RUN: drillIdFor(deadHarness, 1) }),
    });
    expect(await orphanB.nextLine()).toBe('ok');
    const liveOne = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(live, 1) }) });

    // With cgroups: a dead run's cgroup holding a process with no marker at all.
    const cg = cleanup.cgroup(drillIdFor(deadHarness, 2));
    let hidden: ProcIdentity | null = null;
    if (cg) {
      const h = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({}) });
      expect(cg.addPid(h.id)).toBe(true);
      hidden = h.id;
    }
    const liveCg = cleanup.cgroup(drillIdFor(live, 2));

    unregisteredReg.unregister();
    const harnessGone = new Promise((r) => harness.child.once('exit', r));
    harness.child.kill('SIGKILL');
    await harnessGone;
    expect(isRunLive(unregistered)).toBe(false);
    expect(isRunLive(deadHarness)).toBe(false);

    const mine = new Set([unregistered, deadHarness, live]);
    const rows = await sweepStale({ runFilter: (r) => mine.has(r), termWaitMs: 500 });

    const row = (id: ProcIdentity) => rows.find((r) => r.pid === id.pid && r.startTime === id.startTime);
    expect(row(orphanA.id)).toMatchObject({ drillId: drillIdFor(unregistered, 1), endedBy: 'SIGTERM', cmdline: ['sleep', '300'] });
    expect(row(orphanB.id)).toMatchObject({ drillId: drillIdFor(deadHarness, 1), endedBy: 'SIGKILL', cmdline: ['sleep', '300'] });
    expect(procState(orphanA.id)).not.toBe('alive');
    expect(procState(orphanB.id)).not.toBe('alive');
    expect(existsSync(deadFile)).toBe(false);

    expect(row(liveOne.id)).toBeUndefined();
    expect(procState(liveOne.id)).toBe('alive');
    expect(isRunLive(live)).toBe(true);
    expect(rows.every((r) => mine.has(runIdOf(r.drillId)))).toBe(true);

    if (cg && hidden) {
      expect(row(hidden)).toMatchObject({ drillId: drillIdFor(deadHarness, 2), endedBy: 'SIGTERM' });
      expect(procState(hidden)).not.toBe('alive');
      expect(cg.exists()).toBe(false);
      expect(liveCg!.exists()).toBe(true);
    }
    expect(identify(process.pid)).not.toBeNull();
  });
});
