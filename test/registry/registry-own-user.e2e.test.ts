/**
 * The private run registry as whoever runs the suite, root or an ordinary user: the real CLI with
 * the registry it finds on its own ($XDG_RUNTIME_DIR/crash-drill, XDG_RUNTIME_DIR a private temp
 * folder; no CRASH_DRILL_REGISTRY), so these run where registry-users.e2e.test.ts, which needs
 * root to act as two other users, is skipped. Without root no other user can make the folder, so
 * it is made open to others here: refused with exit 3 by every command that uses it, nothing
 * read, written or reported from it; the same for a symlink in its place and a runs/ open to
 * others; the first run makes the folder 0700 and passes.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { type CliRun, runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const uid = process.geteuid?.() ?? 0;
const FORGED_RUN = 'cd-20261201T000000-abcdef';
const FORGED =
  '{"drillId":"cd-20261201T000000-abcdef.0","pid":4242,"startTime":1,"cmdline":["node","forged-server.js","--token=stolen"],"endedBy":"survived"}\n';

/** A private XDG_RUNTIME_DIR, a scenario of one well-behaved drill, and where its report goes. */
function work(): { xdg: string; registry: string; dir: string; scenarios: string; out: string } {
  const dir = tempDir('registry-own-');
  const xdg = join(dir, 'xdg');
  mkdirSync(xdg, { mode: 0o700 });
  const scenarios = join(dir, 'scenarios');
  mkdirSync(scenarios);
  writeFileSync(
    join(scenarios, 'one.yaml'),
    scenarioYaml({
      id: 'one',
      subject: fakeSubject('well-behaved', {}, packageRoot()),
      target: { call: 'spawn-helper' },
      points: ['after-response'],
      modes: ['crash'],
    }),
  );
  return { xdg, registry: join(xdg, 'crash-drill'), dir, scenarios, out: join(dir, 'out') };
}

/** The CLI with the registry it finds itself: XDG_RUNTIME_DIR set, no variable naming a registry or a state file. */
function cli(w: { xdg: string; dir: string }, args: string[]): Promise<CliRun> {
  // runCli adds these to process.env; an undefined value is left out of the child's environment (child_process).
  return runCli(args, { cwd: w.dir, env: { XDG_RUNTIME_DIR: w.xdg, CRASH_DRILL_REGISTRY: undefined, CRASH_DRILL_ORPHANS_STATE: undefined } });
}

const refusal = (dir: string, got: string) =>
  `the run registry folder ${dir} is not private: expected a folder (not a symlink) owned by uid ${uid} with mode 0700 (no group or other permissions), ${got}; refused before anything started. Remove it (rm -r ${dir}) if you did not make it, or set CRASH_DRILL_REGISTRY to a folder of yours with mode 0700, the same for every harness of yours on this machine.`;

const modeOf = (p: string) => {
  const st = lstatSync(p);
  return [st.isDirectory(), st.uid, st.mode & 0o7777];
};
const staleOf = (out: string) => (JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { stale: unknown[] }).stale;

describe('the run registry the CLI finds itself, as the user who runs the suite', () => {
  it('the first run makes $XDG_RUNTIME_DIR/crash-drill and runs/ 0700, passes, and leaves no registration', async () => {
    const w = work();
    const r = await cli(w, ['run', w.scenarios, '--out', w.out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('1 passed, 0 failed, 0 unknown');
    expect(modeOf(w.registry)).toEqual([true, uid, 0o700]);
    expect(modeOf(join(w.registry, 'runs'))).toEqual([true, uid, 0o700]);
    expect(readdirSync(join(w.registry, 'runs'))).toEqual([]);
  });

  it('open to others, with a forged watchdog record in it: run, baseline, orphans and contain --all-orphans exit 3 naming it, nothing is read or written; removed as the message says, the next run passes and reports nothing forged', async () => {
    const w = work();
    mkdirSync(join(w.registry, 'runs'), { recursive: true });
    chmodSync(w.registry, 0o777);
    chmodSync(join(w.registry, 'runs'), 0o777);
    const record = join(w.registry, 'runs', `${FORGED_RUN}.watchdog.jsonl`);
    writeFileSync(record, FORGED);
    const message = refusal(w.registry, `got a folder owned by uid ${uid} with mode 0777`);

    const r = await cli(w, ['run', w.scenarios, '--out', w.out]);
    expect([r.code, r.stdout, r.stderr]).toEqual([3, '', `crash-drill: ${message}\n`]);
    expect(existsSync(w.out)).toBe(false);
    const baseline = await cli(w, ['baseline', '--out', join(w.dir, 'baseline.json'), w.scenarios]);
    expect([baseline.code, baseline.stdout, baseline.stderr]).toEqual([3, '', `crash-drill: baseline: ${message}\n`]);
    expect(existsSync(join(w.dir, 'baseline.json'))).toBe(false);
    const orphans = await cli(w, ['orphans', '--no-defaults', '--match', 'no-such-server-xyz']);
    expect([orphans.code, orphans.stdout, orphans.stderr]).toEqual([3, '', `crash-drill: orphans: ${message}\n`]);
    const contain = await cli(w, ['contain', '--all-orphans', '--no-defaults', '--match', 'no-such-server-xyz']);
    expect([contain.code, contain.stdout, contain.stderr]).toEqual([3, '', `crash-drill: contain: ${message}\n`]);
    expect(readdirSync(w.registry)).toEqual(['runs']);
    expect(readdirSync(join(w.registry, 'runs'))).toEqual([`${FORGED_RUN}.watchdog.jsonl`]);
    expect(readFileSync(record, 'utf8')).toBe(FORGED);

    // The way out the message gives for a folder of one's own: remove it. The next run makes it anew and passes.
    rmSync(w.registry, { recursive: true });
    const ok = await cli(w, ['run', w.scenarios, '--out', w.out]);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).not.toContain('forged-server.js');
    expect(staleOf(w.out)).toEqual([]);
    expect(modeOf(w.registry)).toEqual([true, uid, 0o700]);
  });

  it('a symlink in its place, to a private folder of ours, is refused and nothing is made in that folder; so is a runs/ open to others', async () => {
    const w = work();
    const target = join(w.dir, 'mine');
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, w.registry);
    const r = await cli(w, ['run', w.scenarios, '--out', w.out]);
    expect([r.code, r.stdout, r.stderr]).toEqual([3, '', `crash-drill: ${refusal(w.registry, `got a symlink owned by uid ${uid} with mode 0777`)}\n`]);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(w.out)).toBe(false);

    const v = work();
    mkdirSync(join(v.registry, 'runs'), { recursive: true, mode: 0o700 });
    chmodSync(join(v.registry, 'runs'), 0o733);
    const runs = await cli(v, ['run', v.scenarios, '--out', v.out]);
    const runsDir = join(v.registry, 'runs');
    expect([runs.code, runs.stdout, runs.stderr]).toEqual([3, '', `crash-drill: ${refusal(runsDir, `got a folder owned by uid ${uid} with mode 0733`)}\n`]);
    expect(readdirSync(runsDir)).toEqual([]);
    expect(existsSync(v.out)).toBe(false);
  });
});
