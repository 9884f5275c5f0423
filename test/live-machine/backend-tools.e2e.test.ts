/**
 * The ps + lsof backend on a machine without its tools: the user's environment, so exit 3 with
 * a message that names the tool (harness/live-machine/ps-lsof-backend.ts), not a stack and exit 4.
 * With the tools on PATH the same command runs.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';

describe('orphans --backend ps-lsof', () => {
  it('exits 3 naming ps when it is not on PATH, and runs (exit 0, or 1 when it finds an orphan) when it is', async () => {
    const empty = tempDir('crash-drill-no-tools-');
    const missing = await runCli(['orphans', '--backend', 'ps-lsof'], { env: { PATH: empty } });
    expect(missing.stderr).toContain('ps is not installed: the ps + lsof backend needs it');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    expect(missing.code).toBe(3);
    // A look at the whole machine: another test file's orphan (a client it SIGKILLed a moment
    // ago) is a finding, exit 1, and the command still ran. What must not happen is exit 3 or 4.
    const found = await runCli(['orphans', '--backend', 'ps-lsof']);
    expect(found.stderr).toBe('');
    expect(found.stdout).toMatch(/\d+ client gone, \d+ client stuck, \d+ detached, \d+ superseded, \d+ attached, \d+ unresolved/);
    expect([0, 1]).toContain(found.code);
  });
});
