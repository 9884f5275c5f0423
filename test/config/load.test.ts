import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadScenarios } from '../../harness/config/index.js';
import { caught, makeTempDir, MINIMAL, type TempDir } from './temp-files.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.remove();
});

const withId = (id: string): string => MINIMAL.replace('id: minimal', `id: ${id}`);

async function loadError(paths: string[]): Promise<ConfigError> {
  const err = await caught(() => loadScenarios(paths));
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as ConfigError).code).toBe('CRASH_DRILL_CONFIG');
  return err as ConfigError;
}

describe('loadScenarios', () => {
  it('finds *.yaml and *.yml recursively, sorted by path, and skips everything else', async () => {
    await tmp.write('s/b.yaml', withId('b'));
    await tmp.write('s/a.yml', withId('a'));
    await tmp.write('s/deep/er/c.YAML', withId('c'));
    await tmp.write('s/notes.md', '# not a scenario');
    await tmp.write('s/data.json', '{}');
    await tmp.write('s/node_modules/pkg/x.yaml', withId('skipped-nm'));
    await tmp.write('s/.hidden/y.yaml', withId('skipped-dot'));
    const loaded = await loadScenarios([path.join(tmp.root, 's')]);
    expect(loaded.map((s) => path.relative(tmp.root, s.file))).toEqual(['s/a.yml', 's/b.yaml', 's/deep/er/c.YAML']);
  });

  it('takes a file named on its own whatever its extension, and loads a file named twice once', async () => {
    const json = await tmp.write('one.json', JSON.stringify({ id: 'json', subject: { command: 'node' }, target: { call: 't' } }));
    const yaml = await tmp.write('dir/two.yaml', withId('two'));
    const loaded = await loadScenarios([yaml, json, path.join(tmp.root, 'dir'), yaml]);
    // Sorted by path: `<root>/dir/two.yaml` comes before `<root>/one.json`, whatever the argument order.
    expect(loaded.map((s) => s.file)).toEqual([yaml, json]);
    expect(loaded.map((s) => s.id)).toEqual(['two', 'json']);
  });

  it('survives a symlink loop', async () => {
    await tmp.write('s/a.yaml', withId('a'));
    await fs.symlink(path.join(tmp.root, 's'), path.join(tmp.root, 's', 'loop'));
    const loaded = await loadScenarios([path.join(tmp.root, 's')]);
    expect(loaded.map((s) => s.id)).toEqual(['a']);
  });

  it('rejects a duplicate id, naming both files', async () => {
    const first = await tmp.write('s/a.yaml', withId('same'));
    const second = await tmp.write('s/b/c.yaml', withId('same'));
    const err = await loadError([path.join(tmp.root, 's')]);
    expect(err.file).toBe(second);
    expect(err.field).toBe('id');
    expect(err.message).toBe(`${second}: id: duplicate id "same", already used by ${first}; ids must be unique across all loaded files`);
  });

  it('accepts different ids in different files (the duplicate check is not too eager)', async () => {
    await tmp.write('s/a.yaml', withId('one'));
    await tmp.write('s/b.yaml', withId('two'));
    expect((await loadScenarios([path.join(tmp.root, 's')])).map((s) => s.id)).toEqual(['one', 'two']);
  });

  it('rejects a missing path, naming it', async () => {
    await tmp.write('s/a.yaml', withId('a'));
    const missing = path.join(tmp.root, 'nope');
    const err = await loadError([path.join(tmp.root, 's'), missing]);
    expect(err.file).toBe(missing);
    expect(err.message).toBe(`${missing}: no such file or folder`);
  });

  it('rejects a folder with no scenario files', async () => {
    await tmp.write('empty/readme.txt', 'nothing here');
    const err = await loadError([path.join(tmp.root, 'empty')]);
    expect(err.message).toBe(`${path.join(tmp.root, 'empty')}: no scenario files (*.yaml, *.yml) found here`);
  });

  it('rejects an empty list of paths', async () => {
    const err = await loadError([]);
    expect(err.message).toBe('no scenario files or folders given');
  });

  it('reports the problems of every bad file in one error, in path order', async () => {
    await tmp.write('s/ok.yaml', withId('ok'));
    const a = await tmp.write('s/a.yaml', `${withId('a')}points: [sideways]\n`);
    const b = await tmp.write('s/b.yaml', 'id: b\nsubject: [\n');
    const err = await loadError([path.join(tmp.root, 's')]);
    expect(err.problems.map((p) => p.file)).toEqual([a, b]);
    const lines = err.message.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^${a.replace(/[.]/g, '\\.')}: points\\[0\\]: expected one of `));
    expect(lines[1].startsWith(`${b}:`)).toBe(true);
    expect(lines[1]).toContain('YAML syntax error');
  });

  it('shows paths under the working folder relative to it', async () => {
    // The process cwd is the repo; a file there reads `scenarios/...`, as in the brief.
    const rel = path.relative(process.cwd(), tmp.root);
    expect(rel.startsWith('..')).toBe(true); // temp files are outside: absolute paths above
    const err = await loadError(['no-such-folder-for-config-test']);
    expect(err.message).toBe('no-such-folder-for-config-test: no such file or folder');
  });
});
