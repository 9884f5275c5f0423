/**
 * `crash-drill verify` end to end: the real CLI `run` writes a report folder, then the real CLI
 * `verify` checks its logs untouched and after tampering.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { makeReportFolder, type ReportFixture } from '../evidence/report-fixture.js';

let fx: ReportFixture;
beforeAll(async () => {
  fx = await makeReportFolder();
}, 120_000);
afterAll(() => {
  if (fx) rmSync(fx.dir, { recursive: true, force: true });
});

/** A copy of the report folder to damage, so every test starts from the real one. */
function copy(name: string): string {
  const to = join(fx.dir, name);
  cpSync(fx.out, to, { recursive: true });
  return to;
}

describe('crash-drill verify', () => {
  it('the run wrote the five drills the fixture expects', () => {
    expect(lastLine(fx.run.stdout)).toBe('1 passed, 2 failed, 1 unknown, 1 error');
  });

  it('prints ok for every untouched log with its count and head, and exits 0', async () => {
    const results = JSON.parse(readFileSync(join(fx.out, 'results.json'), 'utf8'));
    const withLogs = results.drills.filter((d: { evidence: unknown }) => d.evidence);
    expect(withLogs).toHaveLength(5);
    const run = await runCli(['verify', fx.out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lastLine(run.stdout)).toBe('5 verified, 0 broken');
    for (const d of withLogs) {
      const file = join(fx.out, 'evidence', d.evidence.file);
      expect(lines).toContain(`ok ${file} ${d.evidence.records} records, head ${d.evidence.head.slice(0, 12)}`);
    }
    // A single file, and the evidence folder itself, verify the same way.
    const one = await runCli(['verify', join(fx.out, 'evidence', withLogs[0].evidence.file)]);
    expect([one.code, lastLine(one.stdout)]).toEqual([0, '1 verified, 0 broken']);
    const folder = await runCli(['verify', join(fx.out, 'evidence')]);
    expect([folder.code, lastLine(folder.stdout)]).toEqual([0, '5 verified, 0 broken']);
  });

  it('names the broken record of a tampered log and the cut-off one, and exits 1', async () => {
    const report = copy('tampered');
    const files = readdirSync(join(report, 'evidence')).sort();
    const changed = join(report, 'evidence', files[0]);
    const lines = readFileSync(changed, 'utf8').trimEnd().split('\n');
    lines[2] = lines[2].replace('"seq":2', '"seq":2 '); // one byte added to record 3
    writeFileSync(changed, lines.join('\n') + '\n');
    const cut = join(report, 'evidence', files[1]);
    const cutLines = readFileSync(cut, 'utf8').trimEnd().split('\n');
    writeFileSync(cut, cutLines.slice(0, -2).join('\n') + '\n');

    const run = await runCli(['verify', report]);
    expect(run.code).toBe(1);
    expect(lastLine(run.stdout)).toBe('3 verified, 2 broken');
    expect(run.stdout).toContain(`BROKEN ${changed}: record 3: changed: its bytes no longer hash to the prev of record 4\n`);
    expect(run.stdout).toMatch(
      new RegExp(
        `BROKEN ${cut}: the log ends early: results.json says ${cutLines.length} records with head [0-9a-f]{12}…, the file has ${cutLines.length - 2}\\n`,
      ),
    );
  });

  it('exits 3 for a path that does not exist or a folder without logs', async () => {
    const missing = await runCli(['verify', join(fx.dir, 'nope')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain(`${join(fx.dir, 'nope')}: no such file or folder`);
    const empty = await runCli(['verify', join(fx.dir)]);
    expect(empty.code).toBe(3);
    expect(empty.stderr).toContain('no evidence log');
  });
});
