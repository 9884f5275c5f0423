/**
 * The private run registry with three users: root (this test), the victim who drills (uid 4242, which need not
 * exist: setpriv --reuid/--regid --clear-groups) and another local user (uid 65534). The real
 * CLI runs as the victim with the default registry, /tmp/crash-drill-4242 (no XDG_RUNTIME_DIR,
 * no CRASH_DRILL_REGISTRY). The other user's folder, made before the victim's first run, is
 * refused with exit 3 and a message that names it, and what the other user planted in it is in
 * no report; so is a symlink in its place; the other user cannot touch a live run's
 * registration; a record that is not the victim's own is never reported, the same record as
 * the victim's own is; the first run of a new user makes the folder 0700 and passes.
 */
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CliRun } from '../support/cli.js';
import { holdExclusive } from '../support/exclusive.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { NOBODY, unprivileged } from '../support/unprivileged.js';

const VICTIM = 4242;
const OTHER = NOBODY;
const isRoot = process.geteuid?.() === 0;
const u = isRoot ? unprivileged() : null;
const reason = !isRoot ? 'acting as two other users needs root' : u && !u.available ? u.reason : null;
if (reason) console.log(`[registry-users] skipped: ${reason}`);
const root = u?.available ? u.root : '';
const REGISTRY = `/tmp/crash-drill-${VICTIM}`;
const FORGED_RUN = 'cd-20261201T000000-abcdef';
const FORGED =
  '{"drillId":"cd-20261201T000000-abcdef.0","pid":4242,"startTime":1,"cmdline":["node","forged-server.js","--token=stolen"],"endedBy":"survived"}\n';

/** The environment of every process here: the default registry, whatever the suite's is. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const name of ['CRASH_DRILL_REGISTRY', 'XDG_RUNTIME_DIR', 'CRASH_DRILL_ORPHANS_STATE', 'TMPDIR']) delete env[name];
  return env;
}

/** `command` as `uid` (gid the same, no supplementary groups); `input` on its stdin, or stdin left open until `stdin.end()`. */
function as(uid: number, command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return spawn('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', command, ...args], {
    cwd: opts.cwd ?? '/',
    env: { ...cleanEnv(), ...opts.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function finished(child: ReturnType<typeof spawn>): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const run = (uid: number, command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const child = as(uid, command, args, opts);
  child.stdin!.end();
  return finished(child);
};
const cli = (args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  run(VICTIM, process.execPath, [join(root, 'dist/bin/crash-drill.js'), ...args], opts);
const sh = (uid: number, script: string) => run(uid, '/bin/sh', ['-c', script]);

/** Node code run as `uid`, with the observer's module as `m`. */
const observe = () => join(root, 'dist/harness/observe/index.js');
const runIndex = () => join(root, 'dist/harness/registry/index.js');

/** A folder of the victim's (0700), with one well-behaved drill to run. */
function victimWork(): { dir: string; scenarios: string; out: string } {
  const dir = tempDir('registry-victim-');
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  writeFileSync(
    join(scenarios, 'one.yaml'),
    scenarioYaml({ id: 'one', subject: fakeSubject('well-behaved', {}, root), target: { call: 'spawn-helper' }, points: ['after-response'], modes: ['crash'] }),
  );
  for (const p of [dir, scenarios, join(scenarios, 'one.yaml')]) chownSync(p, VICTIM, VICTIM);
  return { dir, scenarios, out: join(dir, 'out') };
}

/** The refusal of a folder of the other user's: the victim cannot remove it from the sticky /tmp, so it says who can. */
const refusal = (dir: string, got: string) =>
  `the run registry folder ${dir} is not private: expected a folder (not a symlink) owned by uid ${VICTIM} with mode 0700 (no group or other permissions), ${got}; refused before anything started. It is uid ${OTHER}'s: only that user or root can remove it (rm -r ${dir}); until then, set CRASH_DRILL_REGISTRY to a folder of yours with mode 0700, the same for every harness of yours on this machine.`;

const stat = (p: string) => {
  const st = lstatSync(p);
  return [st.isDirectory(), st.uid, st.mode & 0o7777];
};
const staleOf = (out: string) => (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { stale: unknown[] }).stale;

describe.skipIf(reason !== null)('the run registry with another local user (uid 65534) against the victim (uid 4242)', () => {
  // The victim's default registry is one path for the whole machine: another suite beside this one
  // (a second checkout, the private checkout's nested run) waits for it.
  let release: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    release = await holdExclusive('/tmp');
  });
  beforeEach(() => rmSync(REGISTRY, { recursive: true, force: true }));
  afterEach(() => {
    for (const dir of [REGISTRY, `${REGISTRY}.aside`]) rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    if (u?.available) u.cleanup();
    await release?.();
  });

  it('the first run of a new user makes /tmp/crash-drill-<uid> and runs/ 0700, passes, and leaves no registration', async () => {
    const w = victimWork();
    expect(existsSync(REGISTRY)).toBe(false);
    const r = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('1 passed, 0 failed, 0 unknown');
    expect(stat(REGISTRY)).toEqual([true, VICTIM, 0o700]);
    expect(stat(join(REGISTRY, 'runs'))).toEqual([true, VICTIM, 0o700]);
    expect(readdirSync(join(REGISTRY, 'runs'))).toEqual([]);
  });

  it("another user's world-writable folder, made first, with a forged watchdog record: every command that uses it exits 3 naming it, and the record is in no report", async () => {
    const w = victimWork();
    const made = await sh(
      OTHER,
      `umask 0 && mkdir -m 0777 ${REGISTRY} ${REGISTRY}/runs && printf '%s' '${FORGED.trim()}' > ${REGISTRY}/runs/${FORGED_RUN}.watchdog.jsonl`,
    );
    expect([made.code, made.stderr]).toEqual([0, '']);
    const message = refusal(REGISTRY, `got a folder owned by uid ${OTHER} with mode 0777`);

    const r = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([3, '', `crash-drill: ${message}\n`]);
    expect(existsSync(w.out)).toBe(false);
    const orphans = await cli(['orphans', '--no-defaults', '--match', 'no-such-server-xyz'], { cwd: w.dir });
    expect([orphans.code, orphans.stdout, orphans.stderr]).toEqual([3, '', `crash-drill: orphans: ${message}\n`]);
    const contain = await cli(['contain', '--all-orphans', '--no-defaults', '--match', 'no-such-server-xyz'], { cwd: w.dir });
    expect([contain.code, contain.stdout, contain.stderr]).toEqual([3, '', `crash-drill: contain: ${message}\n`]);
    const baseline = await cli(['baseline', '--out', join(w.dir, 'baseline.json'), w.scenarios], { cwd: w.dir });
    expect([baseline.code, baseline.stdout, baseline.stderr]).toEqual([3, '', `crash-drill: baseline: ${message}\n`]);
    expect(existsSync(join(w.dir, 'baseline.json'))).toBe(false);
    // Nothing was read, removed or written there.
    expect(readdirSync(join(REGISTRY, 'runs'))).toEqual([`${FORGED_RUN}.watchdog.jsonl`]);
    // As the message says, the victim cannot remove it: /tmp is sticky and the folder is not theirs, so even moving it aside is refused.
    const moved = await sh(VICTIM, `mv ${REGISTRY} ${REGISTRY}.aside`);
    expect([moved.code === 0, /Operation not permitted/.test(moved.stderr), existsSync(REGISTRY)]).toEqual([false, true, true]);

    // What the message says to do works: a folder of the victim's named by CRASH_DRILL_REGISTRY, and the forged line is still in no report.
    const own = join(w.dir, 'registry');
    mkdirSync(own, { mode: 0o700 });
    chownSync(own, VICTIM, VICTIM);
    const ok = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir, env: { CRASH_DRILL_REGISTRY: own } });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).not.toContain('forged-server.js');
    expect(staleOf(w.out)).toEqual([]);
  });

  it("a symlink in its place, made by the other user, to a folder of the victim's: refused, and nothing is made in that folder", async () => {
    const w = victimWork();
    const target = join(w.dir, 'mine');
    mkdirSync(target, { mode: 0o700 });
    chownSync(target, VICTIM, VICTIM);
    const made = await sh(OTHER, `ln -s ${target} ${REGISTRY}`);
    expect([made.code, made.stderr]).toEqual([0, '']);
    const r = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([r.code, r.stdout, r.stderr]).toEqual([3, '', `crash-drill: ${refusal(REGISTRY, `got a symlink owned by uid ${OTHER} with mode 0777`)}\n`]);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(w.out)).toBe(false);
  });

  it("the other user cannot remove, plant beside, or list a live run's registration (EACCES); the victim's other processes see it live", async () => {
    const harness = as(VICTIM, process.execPath, [
      '--input-type=module',
      '-e',
      `const m = { ...(await import(${JSON.stringify(observe())})), ...(await import(${JSON.stringify(runIndex())})) }; const id = m.newRunId(); const r = m.registerRun(id);
       console.log(JSON.stringify({ id, file: m.runsDir() + '/' + id + '.json' }));
       process.stdin.resume(); process.stdin.on('end', () => r.unregister());`,
    ]);
    const done = finished(harness);
    const { id, file } = await new Promise<{ id: string; file: string }>((resolve) => harness.stdout!.once('data', (d) => resolve(JSON.parse(String(d)))));
    try {
      expect(file).toBe(`${REGISTRY}/runs/${id}.json`);
      const attempt = (code: string) => `try { ${code}; console.log('done') } catch (e) { console.log(e.code) }`;
      const tries = await Promise.all(
        [
          `fs.unlinkSync(${JSON.stringify(file)})`,
          `fs.writeFileSync(${JSON.stringify(`${REGISTRY}/runs/${id}.watchdog.jsonl`)}, 'x')`,
          `fs.readdirSync(${JSON.stringify(`${REGISTRY}/runs`)})`,
        ].map((code) => run(OTHER, process.execPath, ['-e', `const fs = require('node:fs'); ${attempt(code)}`])),
      );
      expect(tries.map((t) => t.stdout.trim())).toEqual(['EACCES', 'EACCES', 'EACCES']);
      const live = await run(VICTIM, process.execPath, [
        '--input-type=module',
        '-e',
        `const m = { ...(await import(${JSON.stringify(observe())})), ...(await import(${JSON.stringify(runIndex())})) }; console.log(m.isRunLive(${JSON.stringify(id)}))`,
      ]);
      expect([live.stdout, live.stderr]).toEqual(['true\n', '']);
    } finally {
      harness.stdin!.end();
      await done;
    }
    expect(existsSync(file)).toBe(false);
  });

  it("a forged record in the victim's own folder is reported only when it is the victim's own file: one of another user's is not even read", async () => {
    const w = victimWork();
    const first = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([first.code, first.stderr]).toEqual([0, '']);
    // Only root (or a former owner) could put a file there: the folder is 0700. Planted as uid 65534's file:
    const record = join(REGISTRY, 'runs', `${FORGED_RUN}.watchdog.jsonl`);
    writeFileSync(record, FORGED);
    chmodSync(record, 0o600);
    chownSync(record, OTHER, OTHER);
    const second = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([second.code, second.stderr]).toEqual([0, '']);
    expect(second.stdout).not.toContain('forged-server.js');
    expect(staleOf(w.out)).toEqual([]);
    expect(readFileSync(record, 'utf8')).toBe(FORGED);
    // The same file as the victim's own is read, reported, and taken away: the check is what kept it out.
    chownSync(record, VICTIM, VICTIM);
    const third = await cli(['run', w.scenarios, '--out', w.out], { cwd: w.dir });
    expect([third.code, third.stderr]).toEqual([0, '']);
    expect(third.stdout).toContain('cd-20261201T000000-abcdef.0 pid 4242 node forged-server.js --token=stolen');
    expect(staleOf(w.out)).toEqual([
      {
        drillId: `${FORGED_RUN}.0`,
        pid: 4242,
        startTime: 1,
        cmdline: ['node', 'forged-server.js', '--token=stolen'],
        endedBy: 'survived',
        containedBy: 'watchdog',
      },
    ]);
    expect(existsSync(record)).toBe(false);
  });
});
