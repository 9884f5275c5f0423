/**
 * An exit by a write is not an exit on EOF, on a real process through the real CLI:
 * fake-servers/dies-writing-stderr (like cclsp 0.7.0) never exits on EOF and logs on stderr every
 * 100 ms. Under a client that pipes its stderr (Gemini CLI, Zed, Claude Code) a crash used to let
 * its next line kill it (EPIPE, exit 1) within the deadline, and exit-on-eof passed. The drill now
 * keeps that stderr read until the deadline: exit-on-eof fails in every run, whenever the line
 * comes, and the server then dies of the write as under the real client (no-survivors passes);
 * under the SDK's client, whose stderr is inherited, it never dies and both fail.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';

const SCENARIO = join(packageRoot(), 'test/checks/scenarios/dies-writing-stderr.yaml');

describe('dies-writing-stderr: a death by a write to a broken stderr', () => {
  it('fails exit-on-eof under every client, the piped ones included', async () => {
    const out = tempDir('cd-write-death-');
    const run = await runCli(['run', SCENARIO, '--client-profile', 'gemini-cli,zed,claude-code,ts-sdk', '--out', out, '--reporter', 'json']);
    expect(run.code, run.stderr).toBe(1);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    expect(markedProcesses(results.runId)).toEqual([]);
    const table = Object.fromEntries(results.drills.map((d) => [d.key, Object.fromEntries(d.checks.map((c) => [c.id, c.verdict]))]));
    const piped = { 'exit-on-eof': 'fail', 'no-survivors': 'pass', 'stdout-clean': 'pass' };
    expect(table).toEqual({
      'dies-writing-stderr/idle/crash@gemini-cli': piped,
      'dies-writing-stderr/idle/crash@zed': piped,
      'dies-writing-stderr/idle/crash@claude-code': piped,
      'dies-writing-stderr/idle/crash': { 'exit-on-eof': 'fail', 'no-survivors': 'fail', 'stdout-clean': 'pass' },
    });
    for (const d of results.drills) {
      const check = d.checks.find((c) => c.id === 'exit-on-eof')!;
      if (d.key.includes('@')) {
        // Up at the deadline; its next line after the drill closed the stderr killed it (exit 1).
        expect(check.summary).toMatch(/^the server exited (\d+) ms after losing its client \(code 1\); the deadline is 1000 ms$/);
        expect(d.exit).toMatchObject({ code: 1, signal: null });
        expect(d.exit!.afterLossMs!).toBeGreaterThan(1000);
      } else {
        expect(check.summary).toMatch(/^the server did not exit on EOF: it was ended by SIGTERM from the harness \d+ ms after losing its client$/);
      }
    }
  });
});
