/** The public entry: runDrills gives what the CLI writes, from files or scenario objects. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineConfig, defineScenario, runDrills, type Reporter } from '../harness/index.js';
import { fakeSubject, scenarioFrom, scenarioYaml } from './support/scenarios.js';
import { tempDir } from './support/temp-dir.js';

describe('runDrills', () => {
  it('runs scenario files into a report folder, like the CLI', async () => {
    const dir = tempDir('crash-drill-api-');
    writeFileSync(
      join(dir, 'a.yaml'),
      scenarioYaml({ id: 'api', subject: fakeSubject('well-behaved'), target: { call: 'echo', args: { text: 'hi' } }, points: ['idle'], modes: ['crash'] }),
    );
    const seen: string[] = [];
    const spy: Reporter = { name: 'spy', onDrillEnd: (r) => void seen.push(`${r.scenario} ${r.verdict}`) };
    const config = defineConfig({ scenarios: [dir], out: join(dir, 'out'), reporters: [spy] });
    const { results, evidence } = await runDrills(config);
    expect(results.summary).toEqual({ pass: 1, fail: 0, unknown: 0, error: 0 });
    expect(seen).toEqual(['api pass']);
    expect(evidence).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    expect(saved.drills[0].evidence.head).toBe(results.drills[0].evidence!.head);
    expect(existsSync(join(dir, 'out', 'evidence', results.drills[0].evidence!.file))).toBe(true);
  });

  it('takes scenario objects and writes nothing without out', async () => {
    const scenario = scenarioFrom(
      scenarioYaml({
        id: 'obj',
        subject: fakeSubject('ignores-eof'),
        target: { call: 'echo' },
        points: ['idle'],
        modes: ['close'],
        timeouts: { 'close-wait': 400 },
        expect: { 'exit-on-eof': { deadline: 400 }, 'no-survivors': { grace: 400 } },
      }),
    );
    const { results } = await runDrills({ scenarios: [scenario] });
    expect(results.drills.map((d) => [d.verdict, d.checks.find((c) => c.id === 'exit-on-eof')?.verdict])).toEqual([['fail', 'fail']]);
    expect(results.drills[0].evidence).toBeNull();
  });

  it('defineScenario is an identity function for types', () => {
    const input = { id: 'x', subject: { command: 'node' }, target: { call: 't' } } as const;
    expect(defineScenario(input)).toBe(input);
  });
});

describe('runDrills without a config', () => {
  it('reads the config file of the working folder, like the CLI', async () => {
    const dir = tempDir('crash-drill-api-config-');
    writeFileSync(
      join(dir, 's.yaml'),
      scenarioYaml({ id: 'cfg', subject: fakeSubject('well-behaved'), target: { call: 'echo' }, points: ['idle'], modes: ['crash'] }),
    );
    writeFileSync(join(dir, 'crash-drill.config.mjs'), "export default { scenarios: ['s.yaml'] };\n");
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { results } = await runDrills();
      expect(results.drills.map((d) => [d.key, d.verdict])).toEqual([['cfg/idle/crash', 'pass']]);
    } finally {
      process.chdir(cwd);
    }
    await expect(runDrills()).rejects.toThrow(/no config given and no crash-drill\.config/);
  });
});
