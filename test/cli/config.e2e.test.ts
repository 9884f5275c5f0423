/** `crash-drill run` reads the same config file as the API; the command line wins. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

function project(config: string): string {
  const dir = tempDir('crash-drill-config-');
  writeFileSync(join(dir, 's.yaml'), scenarioYaml({ id: 'from-config', subject: fakeSubject('well-behaved'), target: { call: 'echo', args: { text: 'hi' } } }));
  writeFileSync(join(dir, 'crash-drill.config.mjs'), config);
  return dir;
}

describe('the config file', () => {
  it('is found in the working folder and supplies scenarios, filters and the report folder', async () => {
    const dir = project("export default { scenarios: ['s.yaml'], points: ['idle', 'after-response'], modes: ['crash'], out: 'my-report', concurrency: 2 };\n");
    const run = await runCli(['run'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(lastLine(run.stdout)).toBe('2 passed, 0 failed, 0 unknown');
    const results = JSON.parse(readFileSync(join(dir, 'my-report', 'results.json'), 'utf8'));
    expect(results.drills.map((d: { key: string }) => d.key)).toEqual(['from-config/idle/crash', 'from-config/after-response/crash']);
  });

  it('yields to the command line', async () => {
    const dir = project("export default { scenarios: ['s.yaml'], points: ['idle', 'after-response'], modes: ['crash'], out: 'my-report' };\n");
    const run = await runCli(['run', '--point', 'idle', '--out', 'other'], { cwd: dir });
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 0 unknown');
    expect(existsSync(join(dir, 'other', 'results.json'))).toBe(true);
    expect(existsSync(join(dir, 'my-report'))).toBe(false);
  });

  it('a bad config names the file and the field and exits 3', async () => {
    const dir = project("export default { scenarios: ['s.yaml'], concurency: 2 };\n");
    const run = await runCli(['run'], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/crash-drill\.config\.mjs: concurency: .*did you mean "concurrency"/);
  });
});
