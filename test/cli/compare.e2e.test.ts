/** Comparing servers: the same scenario against several subjects, side by side in the reports. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitCommandLine, subjectsFromCommandLines } from '../../harness/config/command-line.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

describe('--subject', () => {
  it('drills each given server with the scenario and prints them side by side', async () => {
    const dir = tempDir('crash-drill-compare-');
    writeFileSync(
      join(dir, 's.yaml'),
      scenarioYaml({
        id: 'cmp',
        subject: { command: 'node', args: ['unused.js'] },
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: ['crash'],
        expect: { 'exit-on-eof': { deadline: 1500 }, 'no-survivors': { grace: 800 } },
      }),
    );
    const fake = (name: string) => `node ${join(packageRoot(), 'dist/fake-servers', `${name}.js`)}`;
    const run = await runCli([
      'run',
      dir,
      '--out',
      join(dir, 'out'),
      '--subject',
      fake('well-behaved'),
      '--subject',
      fake('leaks-child'),
      '--reporter',
      'console,markdown,html',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Servers side by side:');
    expect(run.stdout).toMatch(/cmp after-response\/crash +pass +fail \(no-survivors\)/);
    expect(lastLine(run.stdout)).toBe('1 passed, 1 failed, 0 unknown');
    // Side by side in every human report: one row per server.
    const markdown = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(markdown).toContain('| well-behaved.js / cmp | ✅ pass |');
    expect(markdown).toContain('| leaks-child.js / cmp | ❌ fail |');
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    expect([...html.matchAll(/class="subject">([^<]*)/g)].map((m) => m[1])).toEqual(['well-behaved.js', 'leaks-child.js']);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8'));
    expect(results.drills.map((d: { key: string; verdict: string }) => [d.key, d.verdict])).toEqual([
      ['cmp/well-behaved.js/after-response/crash', 'pass'],
      ['cmp/leaks-child.js/after-response/crash', 'fail'],
    ]);
  });

  it('never gives two subjects one name, and refuses an unclosed quote', async () => {
    const dir = tempDir('crash-drill-compare-');
    writeFileSync(join(dir, 's.yaml'), 'id: x\nsubject: { command: node }\ntarget: { call: echo }\n');
    expect(subjectsFromCommandLines(['node a.js', 'node other/a.js', 'node b.js'], dir).map((s) => s.name)).toEqual(['a.js (1)', 'a.js (2)', 'b.js']);
    expect(subjectsFromCommandLines(['npx -y @scope/pkg@1.0.0', 'npx -y @scope/pkg@2.0.0'], dir).map((s) => s.name)).toEqual([
      '@scope/pkg@1.0.0',
      '@scope/pkg@2.0.0',
    ]);
    const quote = await runCli(['run', dir, '--subject', 'node "a.js']);
    expect(quote.code).toBe(3);
    expect(quote.stderr).toContain('--subject: unclosed " in');
  });
});

describe('splitCommandLine', () => {
  it('splits like a shell for the simple cases', () => {
    expect(splitCommandLine(`npx -y @scope/server  --root "/a b" 'c d' e\\ f`)).toEqual(['npx', '-y', '@scope/server', '--root', '/a b', 'c d', 'e f']);
    expect(splitCommandLine('node ""')).toEqual(['node', '']);
    expect(() => splitCommandLine("node 'x")).toThrow("unclosed '");
  });
});
