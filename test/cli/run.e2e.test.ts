/**
 * End to end: the real CLI on scenario files written to a temp folder; exit codes, the summary
 * line and results.json.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, MISSING_COMMAND_YAML, noChildYaml, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 800 }, 'no-survivors': { grace: 400 } }, timeouts: { 'close-wait': 800 } };

function folderWith(files: Record<string, string>): string {
  const dir = tempDir('crash-drill-e2e-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function results(out: string) {
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
}

describe('crash-drill run', () => {
  it('exits 0 when every drill passes, prints the summary line and writes results.json', async () => {
    const dir = folderWith({
      'wb.yaml': scenarioYaml({
        id: 'wb',
        subject: fakeSubject('well-behaved'),
        target: { call: 'spawn-helper' },
        points: ['idle', 'after-response'],
        modes: ['crash', 'close'],
        ...FAST,
      }),
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--out', out, '--concurrency', '2']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('4 passed, 0 failed, 0 unknown');
    const r = results(out);
    expect(r).toMatchObject({ version: 1, harness: { name: 'mcp-crash-drill' }, summary: { pass: 4, fail: 0, unknown: 0, error: 0 }, interrupted: false });
    expect(Date.parse(r.finishedAt)).toBeGreaterThanOrEqual(Date.parse(r.startedAt));
    expect(r.drills.map((d: { point: string; mode: string }) => `${d.point}/${d.mode}`).sort()).toEqual([
      'after-response/close',
      'after-response/crash',
      'idle/close',
      'idle/crash',
    ]);
    for (const d of r.drills) {
      expect(Object.keys(d)).toEqual(
        expect.arrayContaining(['id', 'scenario', 'subject', 'point', 'mode', 'verdict', 'checks', 'survivors', 'exit', 'tracking']),
      );
      expect(d.verdict).toBe('pass');
      expect(d.subject.name).toBe('well-behaved');
      expect(d.checks.map((c: { id: string }) => c.id)).toEqual(['exit-on-eof', 'no-survivors', 'stdout-clean']);
      expect(d.exit).toMatchObject({ class: 'clean', code: 0 });
      expect(d.tracking.methods).toEqual(expect.arrayContaining(['parent-links', 'env-marker']));
      expect(existsSync(join(out, 'evidence', `${d.id}.jsonl`))).toBe(true);
    }
  });

  it('exits 1 and names the failed drill and its reason in one line', async () => {
    const dir = folderWith({
      'ie.yaml': scenarioYaml({
        id: 'stays-up',
        subject: fakeSubject('ignores-eof'),
        target: { call: 'echo', args: { text: 'hi' } },
        points: ['idle'],
        modes: ['crash'],
        ...FAST,
      }),
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--out', out]);
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('0 passed, 1 failed, 0 unknown');
    expect(run.stdout).toMatch(/FAIL +stays-up idle\/crash \(cd-[^)]+\): exit-on-eof: the server did not exit on EOF/);
    const r = results(out);
    expect(r.summary).toEqual({ pass: 0, fail: 1, unknown: 0, error: 0 });
    expect(r.drills[0].checks.find((c: { id: string }) => c.id === 'no-survivors').verdict).toBe('fail');
    expect(r.drills[0].survivors[0].cmdline.join(' ')).toContain('ignores-eof.js');
  });

  it('exits 2 when a kill point is never reached (unknown, never a pass)', async () => {
    const dir = folderWith({
      // echo starts no child, so child-spawned cannot be reached.
      'u.yaml': noChildYaml(),
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--out', out]);
    expect(run.code).toBe(2);
    expect(lastLine(run.stdout)).toBe('0 passed, 0 failed, 1 unknown');
    const d = results(out).drills[0];
    expect(d.verdict).toBe('unknown');
    expect(d.reason).toContain('kill point child-spawned not reached within 500 ms');
  });

  // A command missing before the run is refused with exit 3 (test/cli/early-refusal.e2e.test.ts); one found
  // on no PATH folder where PATH is the drill's own temp folder can only fail in the drill.
  it('exits 4 with verdict error when the drill cannot start the server command', async () => {
    const dir = folderWith({
      'e.yaml': MISSING_COMMAND_YAML,
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--out', out]);
    expect(run.code).toBe(4);
    expect(lastLine(run.stdout)).toBe('0 passed, 0 failed, 0 unknown, 1 error');
    const d = results(out).drills[0];
    expect(d.verdict).toBe('error');
    expect(d.reason).toMatch(/^handshake: the server command could not be started: spawn mcp-server ENOENT/);
  });

  it('exits 4 with verdict error when a setup call fails', async () => {
    const dir = folderWith({
      's.yaml': scenarioYaml({
        id: 'bad-setup',
        subject: fakeSubject('well-behaved'),
        setup: [{ call: 'no-such-tool' }],
        target: { call: 'echo' },
        points: ['idle'],
        modes: ['crash'],
      }),
    });
    const run = await runCli(['run', dir, '--out', join(dir, 'out')]);
    expect(run.code).toBe(4);
    expect(results(join(dir, 'out')).drills[0].reason).toMatch(/^setup: setup step 0 \(no-such-tool\) failed/);
  });

  it('chooses with --point and --mode, and keeps with --only', async () => {
    const dir = folderWith({
      'a.yaml': scenarioYaml({ id: 'a', subject: fakeSubject('well-behaved'), target: { call: 'echo', args: { text: 'a' } }, ...FAST }),
      'b.yaml': scenarioYaml({ id: 'b', subject: fakeSubject('well-behaved'), target: { call: 'echo', args: { text: 'b' } }, ...FAST }),
    });
    const out = join(dir, 'out');
    const run = await runCli(['run', dir, '--out', out, '--point', 'idle,after-response', '--mode', 'crash', '--only', 'b']);
    expect(run.code).toBe(0);
    expect(results(out).drills.map((d: { scenario: string; point: string; mode: string }) => `${d.scenario}/${d.point}/${d.mode}`)).toEqual([
      'b/idle/crash',
      'b/after-response/crash',
    ]);
  });

  it('rejects an unknown --point, --mode or --only with exit 3', async () => {
    const dir = folderWith({ 'a.yaml': scenarioYaml({ id: 'a', subject: fakeSubject('well-behaved'), target: { call: 'echo' } }) });
    const point = await runCli(['run', dir, '--point', 'sideways']);
    expect(point.code).toBe(3);
    expect(point.stderr).toContain('unknown kill point "sideways"; expected one of idle, pre-dispatch');
    const mode = await runCli(['run', dir, '--mode', 'explode']);
    expect(mode.code).toBe(3);
    expect(mode.stderr).toContain('unknown kill mode "explode"');
    const only = await runCli(['run', dir, '--only', 'zzz']);
    expect(only.code).toBe(3);
    expect(only.stderr).toContain('--only: no scenario has the id "zzz"; known: a');
  });
});

describe('bad scenario files', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['wrong type', 'id: x\nsubject: { command: node }\ntarget: { call: echo }\npoints: idle\n', /x\.yaml: points: expected a list, got "idle"/],
    [
      'unknown kill point',
      'id: x\nsubject: { command: node }\ntarget: { call: echo }\npoints: [idle, sideways]\n',
      /x\.yaml: points\[1\]: expected one of idle, pre-dispatch, .*got "sideways"/,
    ],
    ['missing command', 'id: x\nsubject: { args: [a] }\ntarget: { call: echo }\n', /x\.yaml: subject\.command: /],
    ['unknown field', 'id: x\nsubject: { command: node }\ntarget: { call: echo }\nmodez: [crash]\n', /x\.yaml: modez: .*did you mean "modes"/],
  ];
  for (const [what, text, message] of cases) {
    it(`${what}: names the file and the field, exits 3, writes nothing`, async () => {
      const dir = folderWith({ 'x.yaml': text });
      const out = join(dir, 'out');
      const run = await runCli(['run', join(dir, 'x.yaml'), '--out', out]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toContain(join(dir, 'x.yaml'));
      expect(run.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    });
  }

  it('a path that does not exist exits 3', async () => {
    const run = await runCli(['run', '/nonexistent/scenarios']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('/nonexistent/scenarios');
  });
});

describe('the bundled deploy API (user msw handlers)', () => {
  it('drills a server that talks to a user-shaped API end to end, and no token reaches any output file', async () => {
    const out = join(tempDir('crash-drill-deploy-'), 'out');
    // A survivor holding its token in the environment would be reported; templated tokens in args would be logged: neither may show a token.
    const run = await runCli(['run', 'scenarios/deploy-api', '--out', out, '--point', 'sent,confirmed', '--mode', 'crash']);
    expect(run.stderr).toBe('');
    expect(lastLine(run.stdout)).toBe('2 passed, 0 failed, 0 unknown');
    expect(run.code).toBe(0);
    const r = results(out);
    for (const d of r.drills) {
      const idem = d.checks.find((c: { id: string }) => c.id === 'idempotent-effects');
      expect(idem.summary).toBe('1 effect for 2 keyed writes after the recovery retry, none duplicated');
      expect(idem.data.effects).toEqual([expect.objectContaining({ op: 'deploy' })]);
    }
    const files = [join(out, 'results.json'), ...readdirSync(join(out, 'evidence')).map((f) => join(out, 'evidence', f))];
    const text = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(text).toContain('"type":"remote"');
    expect(text).not.toMatch(/cd[tk]_[A-Za-z0-9_-]{20,}/);
    expect(text).not.toMatch(/Bearer /i);
    // The remote's journal holds no request body: no entry has one, and the effects hash op and target.
    const entries = text
      .split('\n')
      .filter((line) => line.includes('"type":"remote"'))
      .map((line) => JSON.parse(line).entry);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.filter((e) => 'body' in e || 'authorization' in e)).toEqual([]);
  });
});
