/**
 * The config file: found like vitest finds its own, imported (TypeScript transpiled to a temp
 * .mjs beside it, then removed), validated with errors that name the file and the field.
 */
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findConfigFile, loadConfigFile, scenarioFromObject } from '../../harness/run/config-file.js';
import { ConfigError, parseScenario, type Scenario } from '../../harness/config/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioYaml } from '../support/scenarios.js';
import { caught, makeTempDir, type TempDir } from './temp-files.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  await tmp.remove();
});

/** Lets a config in the temp folder `import ... from 'mcp-crash-drill'`, as in a user's project. */
function linkPackage(): void {
  mkdirSync(path.join(tmp.root, 'node_modules'), { recursive: true });
  symlinkSync(packageRoot(), path.join(tmp.root, 'node_modules', 'mcp-crash-drill'), 'dir');
}

async function configError(file: string, options?: Parameters<typeof loadConfigFile>[1]): Promise<ConfigError> {
  const e = await caught(() => loadConfigFile(file, options));
  expect(e).toBeInstanceOf(ConfigError);
  expect((e as ConfigError).code).toBe('CRASH_DRILL_CONFIG');
  return e as ConfigError;
}

const INLINE = `{
  id: 'inline-echo',
  subject: { command: 'node', args: ['server.js'] },
  target: { call: 'echo', args: { text: '{{run.id}}' } },
  points: ['idle'],
  modes: ['crash'],
}`;

describe('findConfigFile', () => {
  it('returns null when the folder has no config file, and ignores a folder with a config name', async () => {
    expect(findConfigFile(tmp.root)).toBeNull();
    mkdirSync(path.join(tmp.root, 'crash-drill.config.mjs'));
    expect(findConfigFile(tmp.root)).toBeNull();
  });

  it('finds the first of .ts, .mts, .js, .mjs, as an absolute path', async () => {
    await tmp.write('crash-drill.config.mjs', 'export default {}');
    expect(findConfigFile(tmp.root)).toBe(path.join(tmp.root, 'crash-drill.config.mjs'));
    await tmp.write('crash-drill.config.js', 'export default {}');
    expect(findConfigFile(tmp.root)).toBe(path.join(tmp.root, 'crash-drill.config.js'));
    await tmp.write('crash-drill.config.ts', 'export default {}');
    expect(findConfigFile(tmp.root)).toBe(path.join(tmp.root, 'crash-drill.config.ts'));
  });
});

describe('loadConfigFile', () => {
  it('loads a .mjs config and resolves its paths from the config folder, not the working folder', async () => {
    const file = await tmp.write(
      'sub/crash-drill.config.mjs',
      `export default {
        scenarios: ['scenarios', '../other/x.yaml'],
        points: ['idle', 'after-response'], modes: ['crash'], only: ['a'], concurrency: 2,
        out: 'report', reporters: ['junit', './my-reporter.js'],
      };`,
    );
    const config = await loadConfigFile(file);
    const dir = path.join(tmp.root, 'sub');
    expect(config).toEqual({
      scenarios: [path.join(dir, 'scenarios'), path.join(tmp.root, 'other/x.yaml')],
      points: ['idle', 'after-response'],
      modes: ['crash'],
      only: ['a'],
      concurrency: 2,
      out: path.join(dir, 'report'),
      reporters: ['junit', path.join(dir, 'my-reporter.js')],
    });
  });

  it('takes defineConfig/defineScenario from the package and validates inline scenarios like YAML files', async () => {
    linkPackage();
    const file = await tmp.write(
      'crash-drill.config.mjs',
      `import { defineConfig, defineScenario } from 'mcp-crash-drill';
       export default defineConfig({ scenarios: [defineScenario(${INLINE})] });`,
    );
    const config = await loadConfigFile(file);
    const s = config.scenarios[0] as Scenario;
    expect(s).toMatchObject({ id: 'inline-echo', file, dir: tmp.root, points: ['idle'], modes: ['crash'] });
    // Defaults filled in, the cwd defaults to the config's folder: the same as a YAML file there.
    const yaml = parseScenario(
      scenarioYaml({
        id: 'inline-echo',
        subject: { command: 'node', args: ['server.js'] },
        target: { call: 'echo', args: { text: '{{run.id}}' } },
        points: ['idle'],
        modes: ['crash'],
      }),
      file,
    );
    expect(s).toEqual(yaml);
  });

  it('keeps reporter objects as they are (methods on a prototype survive)', async () => {
    const file = await tmp.write(
      'crash-drill.config.mjs',
      `class Mine { name = 'mine'; onRunEnd() { return 'ended'; } }
       export default { scenarios: ['s'], reporters: [new Mine()] };`,
    );
    const config = await loadConfigFile(file);
    const r = config.reporters?.[0] as unknown as { name: string; onRunEnd(): string };
    expect(r.name).toBe('mine');
    expect(r.onRunEnd()).toBe('ended');
  });

  it('names the file and the field of an unknown key, with a "did you mean"', async () => {
    const file = await tmp.write('crash-drill.config.mjs', "export default { scenarios: ['s'], concurency: 2, colour: true };");
    const e = await configError(file);
    expect(e.file).toBe(file);
    expect(e.message.split('\n')).toEqual([
      `${file}: concurency: unknown field; did you mean "concurrency"?`,
      `${file}: colour: unknown field; known: scenarios, points, modes, protocol, network, clientProfiles, only, concurrency, out, reporters, signal, passWithNoDrills, baseline, orphans`,
    ]);
  });

  it('says what was expected and what was found for a bad value', async () => {
    const file = await tmp.write('crash-drill.config.mjs', "export default { scenarios: ['s', 3], points: ['sideways'], concurrency: 0 };");
    const lines = (await configError(file)).message.split('\n');
    expect(lines).toContain(`${file}: scenarios[1]: expected a scenario file or folder (a string) or a scenario object (defineScenario), got the number 3`);
    expect(lines.some((l) => l.startsWith(`${file}: points[0]: expected one of idle, pre-dispatch`) && l.endsWith('got "sideways"'))).toBe(true);
    expect(lines).toContain(`${file}: concurrency: expected a positive integer, got the number 0`);
  });

  it('places the problems of an inline scenario under scenarios[i], and reports duplicate inline ids', async () => {
    const file = await tmp.write(
      'crash-drill.config.mjs',
      `export default { scenarios: [
        'folder',
        { id: 'x', subject: { command: 'node' }, target: { call: 'echo' }, timeout: { point: 1 } },
        ${INLINE},
        ${INLINE},
      ] };`,
    );
    const lines = (await configError(file)).message.split('\n');
    expect(lines).toEqual([
      `${file}: scenarios[1].timeout: unknown field, did you mean "timeouts"?`,
      `${file}: scenarios[3].id: duplicate id "inline-echo", already used by scenarios[2]`,
    ]);
  });

  it('rejects a file without a default export, one that throws, and a missing file', async () => {
    const none = await tmp.write('a/crash-drill.config.mjs', 'export const config = {};');
    expect((await configError(none)).message).toContain(`${none}: expected a default export such as \`export default defineConfig(`);
    const throws = await tmp.write('b/crash-drill.config.mjs', "throw new Error('boom');");
    expect((await configError(throws)).message).toBe(`${throws}: cannot load the config: boom`);
    const missing = path.join(tmp.root, 'c/crash-drill.config.mjs');
    expect((await configError(missing)).message).toBe(`${missing}: no such config file`);
  });

  it('loads a .ts and a .mts config by transpiling them to a temp .mjs that is removed afterwards', async () => {
    linkPackage();
    const ts = await tmp.write(
      'ts/crash-drill.config.ts',
      `import { defineConfig, type DrillConfig } from 'mcp-crash-drill';
       const n: number = 3;
       const config: DrillConfig = defineConfig({ scenarios: ['scenarios'], concurrency: n satisfies number });
       export default config;`,
    );
    expect((await loadConfigFile(ts)).concurrency).toBe(3);
    expect(readdirSync(path.dirname(ts))).toEqual(['crash-drill.config.ts']);
    const mts = await tmp.write('mts/crash-drill.config.mts', "interface X { a: string }\nexport default { scenarios: ['s'] as string[] };");
    expect((await loadConfigFile(mts)).scenarios).toEqual([path.join(tmp.root, 'mts/s')]);
    expect(readdirSync(path.dirname(mts))).toEqual(['crash-drill.config.mts']);
  });

  it('reports a TypeScript syntax error with its line, and leaves no temp file', async () => {
    const ts = await tmp.write('crash-drill.config.ts', "export default {\n  scenarios: ['s'],,\n};");
    const e = await configError(ts);
    expect(e.message).toMatch(new RegExp(`^${ts.replace(/[.]/g, '\\.')}:2:\\d+: TypeScript syntax error: `));
    expect(readdirSync(tmp.root)).toEqual(['crash-drill.config.ts']);
  });

  it('says clearly when typescript is not installed for a .ts config, and suggests .mjs', async () => {
    const ts = await tmp.write('crash-drill.config.ts', "export default { scenarios: ['s'] };");
    // Resolve only from the temp project, which has no node_modules/typescript.
    const e = await configError(ts, { typescriptFrom: [ts] });
    expect(e.message).toContain(`${ts}: a TypeScript config needs the "typescript" package`);
    expect(e.message).toContain('crash-drill.config.mjs');
    expect(readdirSync(tmp.root)).toEqual(['crash-drill.config.ts']);
  });

  it('loads an edited config again instead of a cached copy', async () => {
    const file = await tmp.write('crash-drill.config.mjs', "export default { scenarios: ['one'] };");
    expect((await loadConfigFile(file)).scenarios).toEqual([path.join(tmp.root, 'one')]);
    await tmp.write('crash-drill.config.mjs', "export default { scenarios: ['two'] };");
    expect((await loadConfigFile(file)).scenarios).toEqual([path.join(tmp.root, 'two')]);
  });
});

describe('scenarioFromObject', () => {
  it('gives the same scenario as the YAML text, and the same problems', () => {
    const file = path.join('/tmp', 'x', 'crash-drill.config.mjs');
    const fromObject = scenarioFromObject({ id: 'a', subject: { command: 'node', cwd: '..' }, target: { call: 'slow', args: { ms: 5 } } }, file);
    expect(fromObject).toEqual(parseScenario('id: a\nsubject: { command: node, cwd: .. }\ntarget: { call: slow, args: { ms: 5 } }', file));
    expect(fromObject.subject.cwd).toBe('/tmp');
    const bad = { id: 'A b', subject: { command: 'node' }, target: { call: 'x' }, points: ['sideways'] };
    let objectError: unknown;
    let yamlError: unknown;
    try {
      scenarioFromObject(bad, file);
    } catch (e) {
      objectError = e;
    }
    try {
      parseScenario('id: A b\nsubject: { command: node }\ntarget: { call: x }\npoints: [sideways]', file);
    } catch (e) {
      yamlError = e;
    }
    expect(objectError).toBeInstanceOf(ConfigError);
    expect((objectError as ConfigError).message).toBe((yamlError as ConfigError).message);
    expect((objectError as ConfigError).problems.map((p) => p.field)).toEqual(['id', 'points[0]']);
  });
});
