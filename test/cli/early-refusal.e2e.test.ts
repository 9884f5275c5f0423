/**
 * Early refusal, end to end: a subject command that cannot run is one configuration error
 * naming the scenario file and field, exit 3, before any drill starts and before the report
 * folder is touched; the same through runDrills() (one run path, harness/run/run-drills.ts).
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCommand } from '../../harness/config/subject-command.js';
import { ConfigError, runDrills } from '../../harness/index.js';
import { runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { unprivileged } from '../support/unprivileged.js';

const u = unprivileged();
const asRoot = process.getuid?.() === 0;
if (!u.available) console.log(`[early-refusal] the ordinary-user case is skipped: ${u.reason}`);
else if (!asRoot) console.log('[early-refusal] the ordinary-user case is skipped: it needs root to make a program only root may run');

const ALL: ScenarioParts = { points: ['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response'], modes: ['crash', 'close', 'hang'] };

function folder(): string {
  const dir = tempDir('crash-drill-refusal-');
  writeFileSync(
    join(dir, 'good.yaml'),
    scenarioYaml({ id: 'good', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash'] }),
  );
  // 15 drills that would each have been an ERROR (spawn ENOENT) before.
  writeFileSync(
    join(dir, 'missing.yaml'),
    scenarioYaml({ id: 'missing', subject: { command: '/nonexistent/bin', args: ['serve'] }, target: { call: 'echo' }, ...ALL }),
  );
  mkdirSync(join(dir, 'not-a-program'));
  return dir;
}

describe('early refusal of a subject command that cannot run', () => {
  it('is one error naming the file and subject.command, exit 3, nothing started or written', async () => {
    const dir = folder();
    const out = join(dir, 'report');
    const run = await runCli(['run', dir, '--out', out], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'crash-drill: missing.yaml: subject.command: expected a program that can be run, got "/nonexistent/bin": no such file; nothing was started\n',
    );
    // The console reporter's first line ("crash-drill: N drills, ...") never came: no drill started.
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });

  it('names subjects[i].command for one of several subjects, and a directory as not a program', async () => {
    const dir = folder();
    writeFileSync(
      join(dir, 'missing.yaml'),
      ['id: missing', 'subjects:', '  - { command: node, args: [x.js], name: a }', '  - { command: ./not-a-program, name: b }', 'target: { call: echo }'].join(
        '\n',
      ),
    );
    const run = await runCli(['run', dir, '--out', join(dir, 'report')], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `crash-drill: missing.yaml: subjects[1].command: expected a program that can be run, got "./not-a-program" (${join(dir, 'not-a-program')}): a directory, not a program; nothing was started\n`,
    );
  });

  it('names --subject when the flag gives the command, and a bare name not found on PATH', async () => {
    const dir = folder();
    const run = await runCli(['run', join(dir, 'good.yaml'), '--subject', 'no-such-mcp-server --stdio', '--out', join(dir, 'report')], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /^crash-drill: --subject: expected a program that can be run, got "no-such-mcp-server": not found on PATH \(\d+ folders? searched\); nothing was started\n$/,
    );
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });

  it('runDrills() throws the same ConfigError before starting anything', async () => {
    const dir = folder();
    const out = join(dir, 'api-report');
    const error = await runDrills({ scenarios: [dir], out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: join(dir, 'missing.yaml'), field: 'subject.command' });
    expect((error as ConfigError).problems).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('leaves alone a scenario that `only` leaves out', async () => {
    const dir = folder();
    const out = join(dir, 'report');
    const { results } = await runDrills({ scenarios: [dir], only: ['good'], out });
    expect(results.drills.map((d) => [d.key, d.verdict])).toEqual([['good/idle/crash', 'pass']]);
  });
});

// Privilege is part of the matrix: whether a program can be run depends on who runs it.
describe.skipIf(!u.available || !asRoot)('early refusal as an ordinary user', () => {
  it('refuses a program only root may run (exit 3), which root itself may run', async () => {
    if (!u.available) return;
    const bin = tempDir('crash-drill-root-only-');
    chmodSync(bin, 0o755);
    const program = join(bin, 'root-only-server');
    writeFileSync(program, '#!/bin/sh\nexit 0\n');
    chmodSync(program, 0o700);
    expect(resolveCommand(program, bin, '')).toEqual({ ok: true, path: program });
    const dir = u.workDir();
    writeFileSync(join(dir, 's.yaml'), scenarioYaml({ id: 's', subject: { command: program }, target: { call: 'echo' } }));
    chmodSync(join(dir, 's.yaml'), 0o644);
    const run = await u.run(['run', dir, '--out', join(dir, 'report')], { cwd: dir });
    expect([run.code, run.stderr]).toEqual([
      3,
      `crash-drill: s.yaml: subject.command: expected a program that can be run, got "${program}": not executable; nothing was started\n`,
    ]);
    expect(existsSync(join(dir, 'report'))).toBe(false);
  });
  afterAll(() => {
    if (u.available) u.cleanup();
  });
});
