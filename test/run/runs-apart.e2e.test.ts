/**
 * Two runs on one machine never touch each other: real CLI runs side by side, one of
 * them in a private PID namespace, whose harness registers a pid that means nothing outside it.
 * A run is dead only when its registration's lock is free (harness/registry/run-lock.ts), so the
 * host's runs leave the namespaced run's drills alone while it runs, and a run killed beside it
 * is swept by the next run, alone. Where unshare is refused (not root, a container without
 * CAP_SYS_ADMIN) the file skips and says why.
 *
 * The runs drop to a uid of this file's own (setpriv, test/support/unprivileged.ts), with a
 * registry and a TMPDIR of their own: a sweep ends only its own user's processes, so only these
 * runs' sweeps can reach these drills, and no other harness on the machine (another worktree's
 * older build, which still judges by pid) can end them and be taken for the harness under test.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { identify, type ProcIdentity } from '../../harness/observe/index.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { collect } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { noPidNamespace, UNSHARE } from '../support/pid-namespace.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { unprivileged } from '../support/unprivileged.js';
import { suiteName } from '../support/suite-tmp.js';
import { until } from '../support/until.js';

type Results = {
  stale: Array<{ drillId: string; pid: number; startTime: number; containedBy: string }>;
  drills: Array<{ id: string; scenario: string; verdict: string; reason: string; checks: Array<{ id: string; verdict: string }> }>;
};

/**
 * A drill whose server ignores EOF (and keeps a helper): it stays up through the deadline and
 * the grace, about 20 s, which is the window the other runs sweep in. Its verdicts are known:
 * exit-on-eof and no-survivors fail, ended by the run's own SIGTERM; a SIGTERM from another run
 * ends it sooner and changes the reason.
 */
const STAYS = (root: string) =>
  scenarioYaml({
    id: 'stays',
    subject: fakeSubject('ignores-eof', {}, root),
    target: { call: 'spawn-helper' },
    points: ['after-response'],
    modes: ['crash'],
    expect: { 'exit-on-eof': { deadline: 10000 }, 'no-survivors': { grace: 10000 } },
  });
/** A drill that passes at once. The fakes are the ones the runs' uid can read (user.root: a copy where this checkout is private). */
const QUICK = (root: string) =>
  scenarioYaml({ id: 'quick', subject: fakeSubject('well-behaved', {}, root), target: { call: 'echo' }, points: ['idle'], modes: ['crash'] });

/** A uid nothing else on the machine runs as. */
const UID = 64974;
const why = noPidNamespace();
const u = why === null ? unprivileged(UID) : null;
const skip = why ?? (u && !u.available ? u.reason : null);
if (skip) console.warn(`[skip] test/run/runs-apart.e2e.test.ts: ${skip}`);
const user = u?.available ? u : null;
afterAll(() => user?.cleanup());

/** The runs' own registry and temp folder, folders of UID's. */
let registry = '';
let runEnv: NodeJS.ProcessEnv = {};
function freshRegistry(): void {
  registry = user!.workDir();
  runEnv = { CRASH_DRILL_REGISTRY: registry, TMPDIR: user!.workDir() };
}

function folder(files: Record<string, string>): string {
  const dir = user!.workDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

type Started = { child: ChildProcess; out: string; stdout: () => string; exit: Promise<number | null>; runId: Promise<string>; id?: string };
const started: Started[] = [];

/** The CLI on `dir`, on the host or as the first process of a private PID namespace. */
function startRun(dir: string, opts: { namespace?: boolean; env?: NodeJS.ProcessEnv } = {}): Started {
  const child = user!.start(['run', dir, '--out', join(dir, 'out'), '--concurrency', '2'], {
    env: { ...runEnv, ...opts.env },
    ...(opts.namespace ? { prefix: UNSHARE } : {}),
  });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', () => {});
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const runId = until('the run id on the first line', () => /run (cd-[\w-]+)/.exec(text)?.[1], 30_000);
  const run: Started = { child, out: join(dir, 'out'), stdout: () => text, exit, runId };
  runId.then(
    (id) => (run.id = id),
    () => {},
  );
  started.push(run);
  return run;
}

const results = (out: string): Results => JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Results;

/** The run's `stays` drill is past its kill point: its server and the helper it spawned are up. */
async function staysUp(runId: string): Promise<void> {
  await until(
    `the server of ${runId} that ignores EOF, and its helper`,
    () => {
      const commands = markedProcesses(runId).map((p) => p.cmdline);
      return commands.some((c) => c.includes('ignores-eof.js')) && commands.some((c) => c.includes('lib/helper.js'));
    },
    30_000,
  );
  // The harness gives its drills the suite's name (CRASH_DRILL_SUITE): the suite's leftover checks count them.
  expect(markedProcesses(runId, { suite: suiteName() }).some((p) => p.cmdline.includes('ignores-eof.js'))).toBe(true);
}

/** What the `stays` drill of a run that nobody else touched says, and the `quick` one. */
function expectExact(r: Results): void {
  const stays = r.drills.find((d) => d.scenario === 'stays');
  expect(stays?.verdict).toBe('fail');
  expect(Object.fromEntries(stays!.checks.map((c) => [c.id, c.verdict]))).toMatchObject({ 'exit-on-eof': 'fail', 'no-survivors': 'fail' });
  expect(stays!.reason).toContain('ended by SIGTERM from the harness');
  const quick = r.drills.find((d) => d.scenario === 'quick');
  if (quick) expect(quick.verdict).toBe('pass');
}

afterEach(async () => {
  // Whatever an assertion did: our CLIs (unreaped children, so their pids are theirs; unshare's
  // --kill-child takes its namespace along), then anything still marked with their runs.
  const runs: string[] = [];
  for (const run of started.splice(0)) {
    if (run.id) runs.push(run.id);
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    await run.exit;
  }
  const left = runs.flatMap((id) => markedProcesses(id).map((p) => identify(p.pid))).filter((id): id is ProcIdentity => id !== null);
  for (const id of left) signalIdentity(id, 'SIGKILL');
  await until('the runs to leave nothing', () => runs.every((id) => markedProcesses(id).length === 0));
  // What a run killed without its sentinel leaves on disk is in the workDirs, removed with them.
});

/** The CLI run to its end, as UID, on the host. */
function runHost(dir: string): ReturnType<typeof collect> {
  return collect(user!.start(['run', dir, '--out', join(dir, 'out')], { env: runEnv }));
}

describe.skipIf(skip !== null)('two runs on one machine never touch each other', () => {
  it('a run on the host leaves alone the live drills of a run in a private PID namespace, and both judge exactly', async () => {
    freshRegistry();
    const inside = startRun(folder({ 'stays.yaml': STAYS(user!.root), 'quick.yaml': QUICK(user!.root) }), { namespace: true });
    const insideId = await inside.runId;
    await staysUp(insideId);

    // The host's run sweeps at start-up, while the namespaced run's server is in its window.
    const host = folder({ 'quick.yaml': QUICK(user!.root) });
    const run = await runHost(host);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(results(join(host, 'out')).stale.filter((s) => s.drillId.startsWith(`${insideId}.`))).toEqual([]);
    // The premise: the host's run was over before the namespaced drill's window was.
    expect(markedProcesses(insideId).some((p) => p.cmdline.includes('ignores-eof.js'))).toBe(true);

    expect(await inside.exit).toBe(1); // one drill failed, as it must
    const r = results(inside.out);
    expectExact(r);
    expect(r.stale).toEqual([]);
  });

  it('a run killed beside a live one: the next run sweeps what the killed run left, and nothing of the live one', async () => {
    freshRegistry();
    const live = startRun(folder({ 'stays.yaml': STAYS(user!.root) }), { namespace: true });
    const liveId = await live.runId;
    await staysUp(liveId);

    // Without holders and without its sentinel, a killed run's servers stay up until a sweep.
    const killed = startRun(folder({ 'stays.yaml': STAYS(user!.root) }), { env: { CRASH_DRILL_SUBREAPER: 'off', CRASH_DRILL_SENTINEL: 'off' } });
    const killedId = await killed.runId;
    await staysUp(killedId);
    killed.child.kill('SIGKILL'); // our own unreaped child
    await killed.exit;
    // What the killed run left for a sweep: its server and the helper it spawned.
    const leftovers = markedProcesses(killedId)
      .filter((p) => p.cmdline.includes('ignores-eof.js') || p.cmdline.includes('lib/helper.js'))
      .map((p) => identify(p.pid))
      .filter((id): id is ProcIdentity => id !== null);
    expect(leftovers).toHaveLength(2);
    expect(existsSync(join(registry, 'runs', `${killedId}.json`))).toBe(true);

    const next = folder({ 'quick.yaml': QUICK(user!.root) });
    const run = await runHost(next);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const stale = results(join(next, 'out')).stale;
    expect(stale.filter((s) => s.drillId.startsWith(`${liveId}.`))).toEqual([]);
    // The killed run's rows (its client may still have been on its way out, and be swept too);
    // other rows are other dead runs' on this machine.
    const ofKilled = stale.filter((s) => s.drillId.startsWith(`${killedId}.`));
    expect(ofKilled.every((s) => s.containedBy === 'sweep')).toBe(true);
    const swept = new Set(ofKilled.map((s) => `${s.pid}:${s.startTime}`));
    expect(leftovers.filter((id) => !swept.has(`${id.pid}:${id.startTime}`))).toEqual([]);
    expect(markedProcesses(killedId)).toEqual([]);
    expect(existsSync(join(registry, 'runs', `${killedId}.json`))).toBe(false);
    // The premise: the live run's drill was still in its window when the next run was done.
    expect(markedProcesses(liveId).some((p) => p.cmdline.includes('ignores-eof.js'))).toBe(true);

    expect(await live.exit).toBe(1);
    const r = results(live.out);
    expectExact(r);
    expect(r.stale).toEqual([]);
  });
});
