/**
 * End to end: `--mode`, `--point` and `--client-profile` choose what to drill (harness/plan/plan.ts),
 * a run of no drills fails unless `--pass-with-no-drills`, and `--subject` alone (with `--call`)
 * drills a server with no scenario file at all. The real CLI on real fake servers, in temp folders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 800 } };
const fake = (name: string) => `node ${join(packageRoot(), `dist/fake-servers/${name}.js`)}`;

function folderWith(files: Record<string, string>): string {
  const dir = tempDir('crash-drill-choose-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Each drill of results.json as `key verdict`, in plan order. */
function drills(out: string): string[] {
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { drills: Array<{ key: string; index: number; verdict: string }> };
  return [...results.drills].sort((a, b) => a.index - b.index).map((d) => `${d.key} ${d.verdict}`);
}

describe('crash-drill run --subject alone', () => {
  it('drills the server at idle in the default modes from an empty folder, and exits 0', async () => {
    const dir = tempDir('crash-drill-alone-');
    const run = await runCli(['run', '--subject', fake('well-behaved'), '--out', 'out', '--reporter', 'json'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('3 passed, 0 failed, 0 unknown');
    expect(drills(join(dir, 'out'))).toEqual(['well-behaved.js/idle/crash pass', 'well-behaved.js/idle/close pass', 'well-behaved.js/idle/hang pass']);
  });

  it('with --call <tool> and --args, also at the points the call reaches', async () => {
    const dir = tempDir('crash-drill-alone-');
    const run = await runCli(['run', '--subject', fake('well-behaved'), '--call', 'echo', '--args', '{"text":"hi"}', '--out', 'out', '--reporter', 'json'], {
      cwd: dir,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('12 passed, 0 failed, 0 unknown');
    expect(drills(join(dir, 'out'))).toEqual(
      ['idle', 'pre-dispatch', 'in-flight', 'after-response'].flatMap((point) =>
        ['crash', 'close', 'hang'].map((mode) => `well-behaved.js/${point}/${mode} pass`),
      ),
    );
  });

  it('exits 1 the same way for a server that ignores EOF', async () => {
    const dir = tempDir('crash-drill-alone-');
    const run = await runCli(['run', '--subject', fake('ignores-eof'), '--mode', 'crash', '--out', 'out', '--reporter', 'json'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('0 passed, 1 failed, 0 unknown');
    expect(drills(join(dir, 'out'))).toEqual(['ignores-eof.js/idle/crash fail']);
  });

  it('refuses --call beside scenario files, and --args without --call (exit 3, nothing run)', async () => {
    const dir = folderWith({ 'a.yaml': scenarioYaml({ id: 'a', subject: fakeSubject('well-behaved'), points: ['idle'] }) });
    const call = await runCli(['run', dir, '--subject', fake('well-behaved'), '--call', 'echo']);
    expect([call.code, call.stderr]).toEqual([
      3,
      'crash-drill: --call: expected a --subject alone (no scenario paths, no config file, no scenarios/ folder here), whose scenario it completes; a scenario file names its own target:\n',
    ]);
    const args = await runCli(['run', '--subject', fake('well-behaved'), '--args', '{}'], { cwd: dir });
    expect([args.code, args.stderr]).toEqual([3, 'crash-drill: --args: expected --call <tool> beside it: they are the call and its arguments\n']);
  });
});

describe('--mode, --point and --client-profile choose', () => {
  it('--mode stop drills stop on a scenario whose file lists crash alone', async () => {
    const dir = folderWith({ 'a.yaml': scenarioYaml({ id: 'a', subject: fakeSubject('well-behaved'), points: ['idle'], modes: ['crash'], ...FAST }) });
    const out = join(dir, 'out');
    const own = await runCli(['run', dir, '--out', out, '--reporter', 'json']);
    expect([own.code, own.stderr]).toEqual([0, '']);
    expect(drills(out)).toEqual(['a/idle/crash pass']);
    const run = await runCli(['run', dir, '--mode', 'stop', '--out', out, '--reporter', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(drills(out)).toEqual(['a/idle/stop pass']);
    const both = await runCli(['run', dir, '--mode', 'crash,stop', '--client-profile', 'ts-sdk,codex', '--out', out, '--reporter', 'json']);
    expect([both.code, both.stderr]).toEqual([0, '']);
    expect(drills(out)).toEqual(['a/idle/crash pass', 'a/idle/crash@codex pass', 'a/idle/stop pass', 'a/idle/stop@codex pass']);
  });

  it('--mode cancel says why a scenario without a target gives no drill, and drills the others', async () => {
    const dir = folderWith({
      'bare.yaml': scenarioYaml({ id: 'bare', subject: fakeSubject('well-behaved'), points: ['idle'], modes: ['crash'], ...FAST }),
      'slow.yaml': scenarioYaml({
        id: 'slow',
        subject: fakeSubject('well-behaved'),
        target: { call: 'slow', args: { ms: 3000 } },
        points: ['idle', 'in-flight'],
        ...FAST,
      }),
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--mode', 'cancel', '--out', out, '--reporter', 'json']);
    expect(run.stderr).toBe(
      [
        'crash-drill: left out bare: cancel needs a target call to cancel, and the scenario has no target (idle/cancel)',
        'crash-drill: left out slow: cancel needs a call in flight to cancel, and at idle there is none (in-flight, sent, confirmed, child-spawned have one) (idle/cancel)',
        '',
      ].join('\n'),
    );
    expect(drills(out)).toEqual(['slow/in-flight/cancel pass']);
  });

  it('a plan of 0 drills exits 1 with why each scenario gave none; --pass-with-no-drills exits 0', async () => {
    const dir = folderWith({ 'bare.yaml': scenarioYaml({ id: 'bare', subject: fakeSubject('well-behaved'), points: ['idle'], ...FAST }) });
    const out = join(dir, 'out');
    const none = await runCli(['run', dir, '--point', 'after-response', '--mode', 'crash', '--out', out]);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(
      [
        'crash-drill: no drill to run (points after-response; modes crash): the plan of 1 scenario is empty, and a run of no drills fails (--pass-with-no-drills, or passWithNoDrills, lets it pass)',
        '',
        'bare: after-response is reached through the target call, and the scenario has no target (after-response/crash)',
        '',
      ].join('\n'),
    );
    const pass = await runCli(['run', dir, '--point', 'after-response', '--mode', 'crash', '--pass-with-no-drills', '--out', out, '--reporter', 'json']);
    expect(pass.code).toBe(0);
    expect(pass.stderr).toBe(
      [
        'crash-drill: no drill to run (points after-response; modes crash): the plan of 1 scenario is empty; the run passes, as asked (pass with no drills)',
        'crash-drill: bare: after-response is reached through the target call, and the scenario has no target (after-response/crash)',
        '',
      ].join('\n'),
    );
    expect(lastLine(pass.stdout)).toBe('0 passed, 0 failed, 0 unknown');
    expect(drills(out)).toEqual([]);
  });
});
