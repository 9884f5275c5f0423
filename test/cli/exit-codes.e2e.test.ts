/**
 * Every exit code comes from the one table (harness/util/errors.ts), and a user's mistake is exit 3
 * naming what to fix, never exit 4 as if it were the harness's own failure.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../harness/util/errors.js';
import { runDrills, UserError } from '../../harness/index.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';

const root = packageRoot();

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));
}

/** A folder with one drill of well-behaved that passes. */
function oneDrill(): string {
  const dir = tempDir('crash-drill-exit-codes-');
  const yaml = scenarioYaml({
    id: 'one',
    subject: fakeSubject('well-behaved'),
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle'],
    modes: ['crash'],
  });
  writeFileSync(join(dir, 'one.yaml'), yaml);
  return dir;
}

describe('exit codes', () => {
  it('commands return the table, never a number of their own', () => {
    const files = [...sources('harness/cli'), ...sources('harness/init'), 'harness/client/main.ts'];
    const literal = /\breturn\s+\d+\s*;|exitCode\s*=\s*\d|process\.exit\(\s*\d|\?\s*\d\s*:\s*\d/;
    const bad = files.filter((file) => literal.test(readFileSync(join(root, file), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('every error class of the project extends the one base, so its exit code is known', () => {
    // The base itself is the one class that extends Error.
    const files = [...sources('harness'), ...sources('reports')].filter((file) => file !== join('harness', 'errors.ts'));
    const bare = files.flatMap((file) => [...readFileSync(join(root, file), 'utf8').matchAll(/class (\w+) extends Error\b/g)].map((m) => `${file}: ${m[1]}`));
    expect(bare).toEqual([]);
  });

  it('a bad CRASH_DRILL_CLIENT is a user error: exit 3 naming the variable and the values it takes, and nothing runs', async () => {
    const dir = oneDrill();
    const run = await runCli(['run', dir, '--out', join(dir, 'out')], { env: { CRASH_DRILL_CLIENT: 'thread' } });
    expect(run.code).toBe(EXIT.usage);
    expect(run.stderr).toBe('crash-drill: CRASH_DRILL_CLIENT: expected process or inprocess, got "thread"\n');
    expect(run.stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['one.yaml']);
  });

  it('a good CRASH_DRILL_CLIENT runs: exit 0', async () => {
    const dir = oneDrill();
    const run = await runCli(['run', dir, '--out', join(dir, 'out')], { env: { CRASH_DRILL_CLIENT: 'process' } });
    expect(run.stderr).toBe('');
    expect(lastLine(run.stdout)).toBe('1 passed, 0 failed, 0 unknown');
    expect(run.code).toBe(EXIT.ok);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as { drills: Array<{ client?: string }> };
    expect(results.drills).toHaveLength(1);
  });

  it('runDrills() gives the API the same error, typed: a UserError with its code and the variable', async () => {
    const dir = oneDrill();
    const saved = process.env.CRASH_DRILL_CLIENT;
    process.env.CRASH_DRILL_CLIENT = 'thread';
    try {
      const error = await runDrills({ scenarios: [dir] }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UserError);
      expect(error).toMatchObject({ code: 'CRASH_DRILL_ENV', fault: 'user', variable: 'CRASH_DRILL_CLIENT', got: 'thread' });
    } finally {
      if (saved === undefined) delete process.env.CRASH_DRILL_CLIENT;
      else process.env.CRASH_DRILL_CLIENT = saved;
    }
  });
});
