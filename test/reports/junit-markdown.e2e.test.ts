/**
 * End to end: `crash-drill run ... --reporter junit,markdown` in a GitHub-Actions-like
 * environment writes junit.xml (schema-valid), summary.md and the job summary, prints the
 * annotations next to the console report, and no drill token or API key reaches any of them.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLine } from '../support/cli.js';
import { tempDir } from '../support/temp-dir.js';
import { runReportScenarios, TOKEN, type ReportRun } from './fixtures/cli-run.js';
import { validateJunit } from './fixtures/junit-xsd.js';

let run: ReportRun;
let ghDir: string;
let stepSummary: string;
beforeAll(async () => {
  ghDir = tempDir('crash-drill-gh-');
  stepSummary = join(ghDir, 'step-summary.md');
  run = await runReportScenarios(['--reporter', 'junit,markdown'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary });
}, 60_000);
afterAll(() => {
  if (run) rmSync(run.dir, { recursive: true, force: true });
  if (ghDir) rmSync(ghDir, { recursive: true, force: true });
});

describe('crash-drill run --reporter junit,markdown', () => {
  it('writes junit.xml and summary.md next to results.json, and the same Markdown to the job summary', async () => {
    const junit = join(run.out, 'junit.xml');
    const summary = join(run.out, 'summary.md');
    expect(existsSync(junit)).toBe(true);
    expect(existsSync(summary)).toBe(true);
    // No report.html in this run: the failed drills' lines link nowhere and name results.json.
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain("\nEach drill's incident record, timeline and evidence are in results.json.\n");
    expect(text).not.toContain('report.html');
    const lint = await validateJunit(junit);
    expect(lint.output).toBe('junit.xml validates\n');
    expect(lint.ok).toBe(true);
    expect(readFileSync(summary, 'utf8')).toContain('\n1 passed, 2 failed, 1 unknown, 1 error\n');
    expect(readFileSync(stepSummary, 'utf8')).toBe(`${readFileSync(summary, 'utf8')}\n`);
  });

  it('prints the annotations and still the console report (markdown does not claim the terminal)', () => {
    const errors = run.run.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(3);
    expect(errors.map((l) => l.slice(0, l.indexOf('::', 2)))).toEqual(
      expect.arrayContaining([
        '::error title=crash-drill error%3A missing idle/crash',
        '::error title=crash-drill fail%3A stays-up idle/crash',
        '::error title=crash-drill fail%3A key-holder idle/crash',
      ]),
    );
    expect(run.run.stdout).toMatch(/^crash-drill: 5 drills, concurrency 2, run cd-/);
    // Annotated as the drills end, so the console's closing line is still the last line.
    expect(lastLine(run.run.stdout)).toBe('1 passed, 2 failed, 1 unknown, 1 error');
    expect(run.run.stdout.lastIndexOf('::error ')).toBeLessThan(run.run.stdout.indexOf('Drills that did not pass:'));
    expect(run.run.stderr).toBe('');
  });

  it('no drill token or API key appears in any report or in the output', () => {
    // The pattern finds a real-looking secret (so a clean result means something).
    expect(TOKEN.test(`Bearer cdt_${'A1b2-_'.repeat(5)}`)).toBe(true);
    expect(TOKEN.test('cdk_short')).toBe(false);
    const texts = {
      junit: readFileSync(join(run.out, 'junit.xml'), 'utf8'),
      summary: readFileSync(join(run.out, 'summary.md'), 'utf8'),
      stepSummary: readFileSync(stepSummary, 'utf8'),
      stdout: run.run.stdout,
    };
    for (const [name, text] of Object.entries(texts)) expect({ name, token: text.match(TOKEN)?.[0] ?? null }).toEqual({ name, token: null });
    // The key-holder drill really did use its long-lived key (so there was a secret to leak): its
    // incident record says so in results.json (summary.md links to report.html for it).
    const results = JSON.parse(readFileSync(join(run.out, 'results.json'), 'utf8')) as {
      drills: Array<{ scenario: string; incident: { authorization?: string } }>;
    };
    expect(results.drills.find((d) => d.scenario === 'key-holder')!.incident.authorization).toContain('the long-lived API key was used and is still valid');
    expect(texts.summary).toContain('denied-after-revocation');
    for (const text of Object.values(texts)) expect(text).not.toMatch(/authorization:\s*bearer/i);
  });
});
