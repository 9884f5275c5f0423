/**
 * Baselines end to end with the real CLI and real fake servers: `crash-drill baseline` writes
 * what did not pass (from a run, or --from a report folder); `run --baseline` (or the config
 * key) absorbs exactly the listed failures, fails on a new one and on an entry that now
 * passes, never absorbs an error; --update-baseline rewrites the file; every report shows
 * known failures as known (JUnit: skipped with the reason); a bad file is exit 3.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDrills } from '../../harness/index.js';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml, type FakeServer, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST: ScenarioParts = { points: ['idle'], modes: ['crash'], expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } } };
const echoOf = (id: string, server: FakeServer) => scenarioYaml({ id, subject: fakeSubject(server), target: { call: 'echo' }, ...FAST });
const ENTRIES = [
  { drill: 'broken/idle/crash', check: null, verdict: 'error', reason: '' },
  { drill: 'noisy/idle/crash', check: 'stdout-clean', verdict: 'fail', reason: '' },
  { drill: 'stays/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: '' },
  { drill: 'stays/idle/crash', check: 'no-survivors', verdict: 'fail', reason: '' },
];

type Entry = (typeof ENTRIES)[number];
const write = (file: string, entries: Entry[]) => writeFileSync(file, JSON.stringify({ version: 1, entries }, null, 2));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { version: number; entries: Entry[] };
const FAILS = ENTRIES.slice(1).map((e) => ({ ...e, reason: `why ${e.drill} ${e.check}` }));

describe('crash-drill baseline and run --baseline', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('crash-drill-baseline-');
    writeFileSync(join(dir, 'good.yaml'), echoOf('good', 'well-behaved'));
    writeFileSync(join(dir, 'stays.yaml'), echoOf('stays', 'ignores-eof'));
    writeFileSync(join(dir, 'noisy.yaml'), echoOf('noisy', 'stdout-noise'));
    // Exits before any handshake: the drill is an error.
    writeFileSync(
      join(dir, 'broken.yaml'),
      scenarioYaml({ id: 'broken', subject: { command: 'node', args: ['-e', 'process.exit(0)'] }, protocol: '2025-11-25', target: { call: 'echo' }, ...FAST }),
    );
  });

  it('writes every check that did not pass, and the erred drill, with an empty reason; --from gives the same file', async () => {
    const run = await runCli(['baseline', dir, '--out', 'b.json', '--report-out', 'r0', '--concurrency', '4'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'crash-drill: baseline: wrote 4 entries to b.json (3 fail, 0 unknown, 1 error); fill in each "reason", commit it, and run with --baseline b.json\n',
    );
    expect(run.stderr).toContain('the 1 unknown and error entry is listed for the record but never absorbed');
    expect(read(join(dir, 'b.json'))).toEqual({ version: 1, entries: ENTRIES });
    const again = await runCli(['baseline', '--from', 'r0', '--out', 'b2.json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'b2.json'), 'utf8')).toBe(readFileSync(join(dir, 'b.json'), 'utf8'));
  });

  it('absorbs exactly the listed failures (exit 0) and every report shows them as known, JUnit as skipped with the reason', async () => {
    write(join(dir, 'known.json'), FAILS);
    writeFileSync(
      join(dir, 'crash-drill.config.mjs'),
      "export default { scenarios: ['good.yaml', 'stays.yaml', 'noisy.yaml'], baseline: 'known.json', concurrency: 3 };\n",
    );
    const run = await runCli(['run', '--out', 'r1', '--reporter', 'junit,markdown,html'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 2 known, 0 unknown');
    expect(run.stdout).toContain('Known failures (baseline known.json):\n');
    expect(run.stdout).toContain('  KNOWN   stays idle/crash exit-on-eof: why stays/idle/crash exit-on-eof\n');
    expect(run.stdout).not.toContain('Drills that did not pass');
    const results = JSON.parse(readFileSync(join(dir, 'r1', 'results.json'), 'utf8'));
    expect(results.summary).toEqual({ pass: 1, fail: 0, unknown: 0, error: 0, known: 2 });
    expect(results.baseline).toEqual({ file: 'known.json', entries: 3, known: 3, stale: [] });
    const stays = results.drills.find((d: { key: string }) => d.key === 'stays/idle/crash');
    expect([stays.verdict, stays.known]).toEqual([
      'known',
      [
        { check: 'exit-on-eof', reason: 'why stays/idle/crash exit-on-eof' },
        { check: 'no-survivors', reason: 'why stays/idle/crash no-survivors' },
      ],
    ]);
    const junit = readFileSync(join(dir, 'r1', 'junit.xml'), 'utf8');
    expect(junit).toContain('<skipped message="known failure (baseline): why noisy/idle/crash stdout-clean" type="known">');
    expect(junit).not.toContain('<failure');
    expect(readFileSync(join(dir, 'r1', 'summary.md'), 'utf8')).toContain('## Known failures (baseline `known.json`)');
    expect(readFileSync(join(dir, 'r1', 'report.html'), 'utf8')).toContain('known failure (baseline): why stays/idle/crash no-survivors');
  });

  it('fails on a failure the baseline does not list, naming only it as new', async () => {
    write(
      join(dir, 'missing-one.json'),
      FAILS.filter((e) => e.drill !== 'noisy/idle/crash'),
    );
    const run = await runCli(['run', 'stays.yaml', 'noisy.yaml', '--baseline', 'missing-one.json', '--out', 'r2', '--concurrency', '2'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('0 passed, 1 failed, 1 known, 0 unknown');
    expect(run.stdout).toMatch(/Drills that did not pass \(new, not in the baseline\):\n {2}FAIL {4}noisy idle\/crash \(cd-[^)]+\): stdout-clean: /);
  });

  it('fails on a listed entry that now passes, telling to remove it; --update-baseline rewrites the file and the run passes', async () => {
    const file = join(dir, 'stale.json');
    write(file, [{ drill: 'good/idle/crash', check: 'exit-on-eof', verdict: 'fail', reason: 'old' }, ...FAILS.filter((e) => e.drill !== 'noisy/idle/crash')]);
    const only = ['--only', 'good,stays,noisy', '--concurrency', '3'];
    const stale = await runCli(['run', dir, '--baseline', 'stale.json', '--out', 'r3', ...only], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain(
      'Stale baseline entries (they now pass; it fails the run):\n  STALE   good/idle/crash exit-on-eof was fail, now passes\n  Remove it from stale.json, or run again with --update-baseline to rewrite the file.\n',
    );
    expect(lastLine(stale.stdout)).toBe('1 passed, 1 failed, 1 known, 0 unknown, 1 stale baseline entry');
    const update = await runCli(['run', dir, '--baseline', 'stale.json', '--update-baseline', '--out', 'r4', ...only], { cwd: dir });
    expect(update.code).toBe(0);
    expect(update.stderr).toBe(
      'crash-drill: baseline stale.json rewritten from this run: 1 entry added, 1 removed, 3 listed; fill in the reason of each new one\n',
    );
    expect(lastLine(update.stdout)).toBe('1 passed, 0 failed, 2 known, 0 unknown');
    // Reasons people wrote are kept; the new entry's is left to fill in.
    expect(read(file).entries).toEqual([{ ...FAILS[0], reason: '' }, FAILS[1], FAILS[2]]);
  });

  it('never absorbs an error, even when the baseline lists it', async () => {
    write(join(dir, 'all.json'), [ENTRIES[0], ...FAILS]);
    const run = await runCli(['run', dir, '--baseline', 'all.json', '--out', 'r5', '--only', 'broken,noisy', '--concurrency', '2'], { cwd: dir });
    expect(run.code).toBe(4);
    expect(lastLine(run.stdout)).toBe('0 passed, 0 failed, 1 known, 0 unknown, 1 error');
  });

  it('a bad baseline file is exit 3 naming the file and field, before anything runs or is written', async () => {
    write(join(dir, 'bad.json'), [{ ...FAILS[0], verdict: 'pass' }]);
    const run = await runCli(['run', dir, '--baseline', 'bad.json', '--out', 'r6'], { cwd: dir });
    expect([run.code, run.stderr, run.stdout]).toEqual([
      3,
      'crash-drill: bad.json: entries[0].verdict: expected one of fail, unknown, error, got "pass"\n',
      '',
    ]);
    expect(existsSync(join(dir, 'r6'))).toBe(false);
    // From a folder without the config file (whose `baseline` key would be the file to update).
    const noFile = await runCli(['run', dir, '--update-baseline', '--out', join(dir, 'r6')], { cwd: tempDir('crash-drill-no-config-') });
    expect([noFile.code, noFile.stderr]).toEqual([
      3,
      'crash-drill: --update-baseline: expected a baseline file to update: give --baseline <file> (or the config key baseline)\n',
    ]);
  });

  it('runDrills() applies the baseline the same way', async () => {
    write(join(dir, 'api.json'), FAILS);
    const { results } = await runDrills({ scenarios: [join(dir, 'stays.yaml')], baseline: join(dir, 'api.json') });
    expect(results.drills.map((d) => [d.key, d.verdict])).toEqual([['stays/idle/crash', 'known']]);
    expect(results.baseline).toMatchObject({ entries: 3, known: 2, stale: [] });
  });
});
