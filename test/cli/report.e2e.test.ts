/**
 * `crash-drill report` end to end: the real CLI `run` writes a report folder, then `report`
 * renders it again from results.json alone, running nothing.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLine, runCli } from '../support/cli.js';
import { makeReportFolder, type ReportFixture } from '../evidence/report-fixture.js';

let fx: ReportFixture;
let savedText: string;
let saved: { runId: string; drills: Array<{ id: string; scenario: string; point: string; mode: string; verdict: string }> };
beforeAll(async () => {
  fx = await makeReportFolder();
  savedText = readFileSync(join(fx.out, 'results.json'), 'utf8');
  saved = JSON.parse(savedText);
}, 120_000);
afterAll(() => {
  if (fx) rmSync(fx.dir, { recursive: true, force: true });
});

describe('crash-drill report', () => {
  it('re-renders json and console into another folder: the same results.json, the same verdict lines, evidence along', async () => {
    const to = join(fx.dir, 'again');
    const run = await runCli(['report', fx.out, '--out', to]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(join(to, 'results.json'), 'utf8')).toBe(savedText);
    expect(run.stdout).toContain(`run ${saved.runId}`);
    expect(lastLine(run.stdout)).toBe('1 passed, 2 failed, 1 unknown, 1 error');
    for (const d of saved.drills) expect(run.stdout).toMatch(new RegExp(`\\] ${d.verdict.toUpperCase()} +${d.scenario} ${d.point}/${d.mode} `));
    expect(run.stdout).not.toContain('\u001b[');
    // The new folder is a complete report folder: its evidence verifies against its results.json.
    expect(readdirSync(join(to, 'evidence')).sort()).toEqual(readdirSync(join(fx.out, 'evidence')).sort());
    const verify = await runCli(['verify', to]);
    expect([verify.code, lastLine(verify.stdout)]).toEqual([0, '5 verified, 0 broken']);
  });

  it('re-renders in place without changing results.json', async () => {
    const run = await runCli(['report', fx.out, '--reporter', 'json']);
    expect(run.code).toBe(0);
    expect(readFileSync(join(fx.out, 'results.json'), 'utf8')).toBe(savedText);
  });

  for (const [name, file] of [
    ['junit', 'junit.xml'],
    ['markdown', 'summary.md'],
    ['html', 'report.html'],
  ] as const) {
    it(`renders ${name} (${file}) from the saved results, naming every scenario`, async () => {
      const to = join(fx.dir, `with-${name}`);
      const run = await runCli(['report', fx.out, '--out', to, '--reporter', name]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const text = readFileSync(join(to, file), 'utf8');
      for (const d of saved.drills) expect(text).toContain(d.scenario);
      expect(text).not.toContain('\u001b[');
    });
  }

  it('exits 3 for a folder without results.json, a broken results.json, or an unknown reporter', async () => {
    const none = await runCli(['report', fx.dir]);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(`${fx.dir}: no results.json`);
    const bad = join(fx.dir, 'bad');
    await runCli(['report', fx.out, '--out', bad, '--reporter', 'json']);
    writeFileSync(join(bad, 'results.json'), '{"version": 1, "dri');
    const broken = await runCli(['report', bad]);
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain(`${join(bad, 'results.json')}: not JSON`);
    const unknown = await runCli(['report', fx.out, '--out', join(fx.dir, 'x'), '--reporter', 'nosuch']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('--reporter nosuch');
    expect(existsSync(join(fx.dir, 'x'))).toBe(false);
  });
});
