import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { drillIdFor, identify, newRunId, procState, runIdOf, type ProcIdentity } from '../../harness/observe/index.js';
import { isRunLive, REGISTRY_ENV, registerRun, runStates, runsDir, sweepStale, whenRunEnds } from '../../harness/registry/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { ownRegistryEnv } from '../support/own-registry.js';
import { tempDir } from '../support/temp-dir.js';
import { envWith, start } from '../observe/helpers.js';
import { Cleanup } from '../support/cleanup.js';
import { noPidNamespace } from '../support/pid-namespace.js';
import { startRegistrant } from '../support/registrant.js';
import { until } from '../support/until.js';

const cleanup = new Cleanup();
const registrations: { unregister(): void }[] = [];
afterEach(async () => {
  for (const r of registrations.splice(0)) r.unregister();
  await cleanup.run();
});

/**
 * Points this process (and the registrants it starts) at a registry of its own
 * (test/support/own-registry.ts) for a test that reads or sweeps a dead run; in the machine's
 * registry the state read `unregistered` (1 of 8 unit runs here) or the sweep found nothing (1
 * whole-suite run of 4 here). Returns the way back.
 */
function ownRegistry(): () => void {
  const saved = process.env[REGISTRY_ENV];
  process.env[REGISTRY_ENV] = ownRegistryEnv()[REGISTRY_ENV];
  return () => {
    if (saved === undefined) delete process.env[REGISTRY_ENV];
    else process.env[REGISTRY_ENV] = saved;
  };
}

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

  it('a registration is made 0600 and believed only as a regular file of ours: a symlink to a live one is not, and a copy is not live', () => {
    const live = newRunId();
    registrations.push(registerRun(live));
    const file = join(runsDir(), `${live}.json`);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ runId: live, pid: process.pid, lock: 'flock' });
    const other = newRunId();
    const planted = join(runsDir(), `${other}.json`);
    symlinkSync(file, planted);
    try {
      expect(runStates([other]).get(other)).toBe('unregistered');
      // The same text as a regular file of ours: what makes a registration live is its lock, which nobody holds on the copy.
      unlinkSync(planted);
      writeFileSync(planted, readFileSync(file), { mode: 0o600 });
      expect(runStates([other]).get(other)).toBe('dead');
    } finally {
      rmSync(planted, { force: true });
    }
  });

  it('a run is live while its harness holds the lock, and dead once the harness is killed', async () => {
    const restore = ownRegistry();
    try {
      const runId = newRunId();
      const harness = await startRegistrant(cleanup, [runId]);
      expect(isRunLive(runId)).toBe(true);
      const gone = new Promise((r) => harness.child.once('exit', r));
      harness.child.kill('SIGKILL');
      await gone;
      expect(runStates([runId]).get(runId)).toBe('dead');
    } finally {
      restore();
    }
  });

  // Before the lock, liveness was the registered pid and start time read in this namespace's
  // /proc: a harness in a namespace of its own registered a pid that names another process here.
  const namespace = noPidNamespace();
  if (namespace) console.warn(`[skip] test/registry/runs.test.ts, the PID namespace test: ${namespace}`);
  it.skipIf(namespace !== null)('a run whose harness is in another PID namespace is live while that harness runs, and dead once it is killed', async () => {
    const restore = ownRegistry();
    try {
      const runId = newRunId();
      const harness = await startRegistrant(cleanup, [runId], { namespace: true });
      const registered = JSON.parse(readFileSync(join(runsDir(), `${runId}.json`), 'utf8')) as { pid: number; startTime: number };
      expect(registered.pid).not.toBe(harness.harness.pid); // the pid it has in its namespace
      expect(isRunLive(runId)).toBe(true);
      const gone = new Promise((r) => harness.child.once('exit', r));
      harness.child.kill('SIGKILL'); // unshare: --kill-child takes the namespace with it
      await gone;
      await until('the namespaced harness to end', () => procState(harness.harness) !== 'alive');
      // Its leader shows Z before its other threads have exited: the descriptor, and so the lock,
      // goes with the last of them, which only the lock itself tells.
      await whenRunEnds(runId, 10_000);
      expect(runStates([runId]).get(runId)).toBe('dead');
    } finally {
      restore();
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

  it("never touches a marked process of a run it finds no registration of: another registry's, another suite's, a run that has not registered", async () => {
    // Another harness of the user's with another CRASH_DRILL_REGISTRY or XDG_RUNTIME_DIR, or a
    // test that starts a marked process itself: nothing here proves such a run dead.
    const foreign = newRunId();
    cleanup.trackDrill(drillIdFor(foreign, 1));
    const drill = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(foreign, 1) }) });
    expect(runStates([foreign]).get(foreign)).toBe('unregistered');
    const rows = await sweepStale({ runFilter: (r) => r === foreign, termWaitMs: 500 });
    expect(rows).toEqual([]);
    expect(procState(drill.id)).toBe('alive');
  });

  it("ends processes of dead runs and leaves a live run's alone", async () => {
    // The runs are registered where no other harness looks (ownRegistry), so no other test file's
    // run, sweeping at its start, takes our dead runs' processes between their death and our sweep.
    const restore = ownRegistry();
    try {
      await deadRunsSwept();
    } finally {
      restore();
    }
  });
});

/** The body of "ends processes of dead runs and leaves a live run's alone", in a registry of its own. */
async function deadRunsSwept(): Promise<void> {
  const killed = newRunId();
  const deadHarness = newRunId();
  const live = newRunId();
  for (const run of [killed, deadHarness, live]) cleanup.trackDrill(drillIdFor(run, 1));
  const killedHarness = await startRegistrant(cleanup, [killed]);
  registrations.push(registerRun(live));
  // A stand-in harness for deadHarness, registered without a lock (as where there is no perl, or
  // by an earlier version): its registry file names a process we will kill.
  const harness = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
  mkdirSync(runsDir(), { recursive: true });
  const deadFile = join(runsDir(), `${deadHarness}.json`);
  writeFileSync(deadFile, JSON.stringify({ runId: deadHarness, pid: harness.id.pid, startTime: harness.id.startTime }));
  expect(isRunLive(deadHarness)).toBe(true);

  const orphanA = start(cleanup, 'sleep', ['300'], { detached: true, stdio: 'ignore', env: envWith({ CRASH_DRILL_RUN: drillIdFor(killed, 1) }) });
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

  for (const h of [harness, killedHarness]) {
    const gone = new Promise((r) => h.child.once('exit', r));
    h.child.kill('SIGKILL');
    await gone;
  }
  expect(runStates([killed, deadHarness]).get(killed)).toBe('dead');
  expect(isRunLive(deadHarness)).toBe(false);

  const mine = new Set([killed, deadHarness, live]);
  // Another harness of the user's, as another test file's run is, sweeping right now with the
  // machine's registry: it finds none of our runs registered, so it takes nothing of theirs.
  const observe = pathToFileURL(join(packageRoot(), 'dist/harness/registry/index.js')).href;
  const ids = JSON.stringify([...mine]);
  const script = `import(${JSON.stringify(observe)}).then(async (m) => { const ids = new Set(${ids}); console.log(JSON.stringify(await m.sweepStale({ runFilter: (id) => ids.has(id), termWaitMs: 300 }))); })`;
  const { [REGISTRY_ENV]: _, ...machineEnv } = process.env;
  const other = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: machineEnv, encoding: 'utf8' });
  expect(other.status, other.stderr).toBe(0);
  expect(JSON.parse(other.stdout)).toEqual([]);
  const rows = await sweepStale({ runFilter: (r) => mine.has(r), termWaitMs: 500 });

  const row = (id: ProcIdentity) => rows.find((r) => r.pid === id.pid && r.startTime === id.startTime);
  expect(row(orphanA.id)).toMatchObject({ drillId: drillIdFor(killed, 1), endedBy: 'SIGTERM', cmdline: ['sleep', '300'] });
  expect(row(orphanB.id)).toMatchObject({ drillId: drillIdFor(deadHarness, 1), endedBy: 'SIGKILL', cmdline: ['sleep', '300'] });
  expect(procState(orphanA.id)).not.toBe('alive');
  expect(procState(orphanB.id)).not.toBe('alive');
  expect(existsSync(deadFile)).toBe(false);
  expect(existsSync(join(runsDir(), `${killed}.json`))).toBe(false);

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
}
