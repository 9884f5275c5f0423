/**
 * Resolving a subject's command as the drill client's spawn will (harness/config/subject-command.ts),
 * on real files: PATH lookup in order, a path with a slash from the working folder, a
 * directory, a file without an execute bit, a missing working folder; and the per-drill
 * templates that make a path unknowable ahead, which are never refused.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../harness/config/index.js';
import { refuseUnrunnableSubjects, resolveCommand } from '../../harness/config/subject-command.js';
import { scenarioFrom, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

function tree() {
  const dir = tempDir('crash-drill-resolve-');
  mkdirSync(join(dir, 'bin'));
  mkdirSync(join(dir, 'other'));
  mkdirSync(join(dir, 'a-dir'));
  writeFileSync(join(dir, 'bin', 'server'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'bin', 'server'), 0o755);
  writeFileSync(join(dir, 'other', 'server'), 'not executable\n');
  chmodSync(join(dir, 'other', 'server'), 0o644);
  writeFileSync(join(dir, 'plain'), 'not executable\n');
  chmodSync(join(dir, 'plain'), 0o644);
  return dir;
}

describe('resolveCommand', () => {
  it('finds a bare name on PATH in order, skipping a non-executable file of the same name, as execvp does', () => {
    const dir = tree();
    expect(resolveCommand('server', dir, `${join(dir, 'other')}:${join(dir, 'bin')}`)).toEqual({ ok: true, path: join(dir, 'bin', 'server') });
    expect(resolveCommand('node', dir, process.env.PATH)).toMatchObject({ ok: true });
  });

  it('resolves a name with a slash from the working folder', () => {
    const dir = tree();
    expect(resolveCommand('./bin/server', dir, '')).toEqual({ ok: true, path: join(dir, 'bin', 'server') });
    expect(resolveCommand('bin/server', join(dir, 'other'), '')).toMatchObject({ ok: false, message: expect.stringContaining('no such file') });
  });

  it('refuses a missing file, a directory, a file without an execute bit and a name on no PATH folder', () => {
    const dir = tree();
    expect(resolveCommand('/nonexistent/bin', dir, process.env.PATH)).toEqual({
      ok: false,
      message: 'expected a program that can be run, got "/nonexistent/bin": no such file',
    });
    expect(resolveCommand('./a-dir', dir, '')).toEqual({
      ok: false,
      message: `expected a program that can be run, got "./a-dir" (${join(dir, 'a-dir')}): a directory, not a program`,
    });
    expect(resolveCommand(join(dir, 'plain'), dir, '')).toEqual({
      ok: false,
      message: `expected a program that can be run, got "${join(dir, 'plain')}": not executable`,
    });
    expect(resolveCommand('server', dir, join(dir, 'other'))).toEqual({
      ok: false,
      message: `expected a program that can be run, got "server": ${join(dir, 'other', 'server')} is not executable`,
    });
    expect(resolveCommand('no-such-program-here', dir, `${join(dir, 'bin')}:${join(dir, 'other')}`)).toEqual({
      ok: false,
      message: 'expected a program that can be run, got "no-such-program-here": not found on PATH (2 folders searched)',
    });
  });

  it('refuses a working folder that does not exist, as spawn would fail there', () => {
    const dir = tree();
    expect(resolveCommand('/bin/sh', join(dir, 'missing'), '')).toEqual({
      ok: false,
      cwd: true,
      message: `expected a folder to run the server in, got "${join(dir, 'missing')}": no such folder`,
    });
  });
});

describe('refuseUnrunnableSubjects', () => {
  const origin = (file: string) => () => ({ file, field: 'subject.command', cwdField: 'subject.cwd' });

  it('names the scenario file and field once, however many drills the scenario has', () => {
    const dir = tree();
    const s = scenarioFrom(scenarioYaml({ id: 'bad', subject: { command: '/nonexistent/bin' }, target: { call: 'echo' } }), dir, 'bad.yaml');
    const error = (() => {
      try {
        refuseUnrunnableSubjects([s, s], origin(s.file));
      } catch (e) {
        return e;
      }
    })() as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.problems).toEqual([
      { file: s.file, field: 'subject.command', message: 'expected a program that can be run, got "/nonexistent/bin": no such file; nothing was started' },
    ]);
  });

  it('takes PATH from the subject env, with {{scenario.dir}} filled in, and names a missing cwd by its field', () => {
    const dir = tree();
    const onPath = scenarioFrom(
      scenarioYaml({ id: 'ok', subject: { command: 'server', env: { PATH: '{{scenario.dir}}/bin' } }, target: { call: 'echo' } }),
      dir,
      'ok.yaml',
    );
    expect(() => refuseUnrunnableSubjects([onPath], origin(onPath.file), { PATH: '/nowhere' })).not.toThrow();
    const noCwd = scenarioFrom(
      scenarioYaml({ id: 'nocwd', subject: { command: '/bin/sh', cwd: 'missing-folder' }, target: { call: 'echo' } }),
      dir,
      'nocwd.yaml',
    );
    expect(() => refuseUnrunnableSubjects([noCwd], origin(noCwd.file))).toThrow(
      /nocwd\.yaml: subject\.cwd: expected a folder to run the server in, got ".*missing-folder": no such folder/,
    );
  });

  it('never refuses what depends on a per-drill value (a {{tmp}} PATH entry or working folder)', () => {
    const dir = tree();
    const tmpPath = scenarioFrom(
      scenarioYaml({ id: 'tmp-path', subject: { command: 'made-per-drill', env: { PATH: '{{tmp}}/bin' } }, target: { call: 'echo' } }),
      dir,
      'tmp-path.yaml',
    );
    const tmpCwd = scenarioFrom(
      scenarioYaml({ id: 'tmp-cwd', subject: { command: './server', cwd: '{{tmp}}' }, target: { call: 'echo' } }),
      dir,
      'tmp-cwd.yaml',
    );
    expect(() => refuseUnrunnableSubjects([tmpPath, tmpCwd], origin(dir), { PATH: '/nowhere' })).not.toThrow();
  });
});
