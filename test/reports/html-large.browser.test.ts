/**
 * A large run's HTML report (reports/html/reporter.ts, more than INLINE_DRILLS drills): the page holds one
 * line a drill and each drill's body is a file of its own under report-drills/, loaded with a
 * script tag when the drill is opened. Opened in a real headless Chromium from file://: the page
 * loads no drill body until one is opened, then exactly that one, with its timeline and incident
 * record, and with no console or page error. A run within the limit stays one self-contained file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import type { DrillResult } from '../../harness/results/types.js';
import { HtmlReporter, INLINE_DRILLS } from '../../reports/html/reporter.js';
import { summaryMarkdown } from '../../reports/markdown.js';
import { EvidenceBuilder } from '../checks/evidence-builder.js';
import { tempDir } from '../support/temp-dir.js';
import { runResults } from './fixtures.js';
import { NPM_CHROMIUM_ARGS, npmChromium } from './fixtures/npm-chromium.js';

const RUN = 'cd-20260101T000000-abcdef';

/** `n` drills, every tenth failing (stdout noise), each with a real evidence log in `out/evidence`. */
function drills(out: string, n: number): DrillResult[] {
  const dir = join(out, 'evidence');
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: n }, (_, i) => {
    const builder = new EvidenceBuilder({ drillId: `${RUN}.${i}`, scenario: `s${i % 50}`, point: 'idle', mode: 'crash' }).start(1000).spawned(1010);
    if (i % 10 === 0) builder.stdoutNoise(1020, `banner ${i}`);
    const evidence = builder
      .handshake(1100)
      .rpcIn(1100)
      .pointReached(1200)
      .clientLost(1200, 'crash', 'SIGKILL')
      .serverExit(1230, { code: 0 })
      .snapshot(1700, [])
      .end(1800)
      .build();
    return { ...judge(evidence), evidence: writeEvidenceLog(dir, evidence) };
  });
}

let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
});

describe('a large run in the HTML report', () => {
  let out: string;
  let results: ReturnType<typeof runResults>;
  beforeAll(async () => {
    out = join(tempDir('crash-drill-html-large-'), 'out');
    results = runResults(drills(out, INLINE_DRILLS + 100));
    new HtmlReporter(out).onRunEnd(results);
    const npm = npmChromium();
    // Chromium keeps a profile folder in TMPDIR and does not always remove it at close: one of the test's own, removed with the file.
    browser = await chromium.launch({
      executablePath: npm.executablePath,
      env: { ...npm.env, TMPDIR: tempDir('crash-drill-chromium-') },
      args: NPM_CHROMIUM_ARGS,
    });
  }, 120_000);

  it('writes one line a drill in the page and a body file a drill', () => {
    const files = readdirSync(join(out, 'report-drills'));
    expect(files.length).toBe(INLINE_DRILLS + 100);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html.match(/<details class="drill /g)?.length).toBe(INLINE_DRILLS + 100);
    // No timeline in the page: each lives in its drill's file.
    expect(html).not.toContain('<h4>Timeline</h4>');
    expect(statSync(join(out, 'report.html')).size).toBeLessThan((INLINE_DRILLS + 100) * 1200);
  });

  it('loads a drill body only once the drill is opened, and shows it', async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
    expect(requests).toEqual([pathToFileURL(join(out, 'report.html')).href]);
    const failing = results.drills.find((d) => d.verdict === 'fail')!;
    const section = page.locator(`details.drill[id="drill-${failing.id}"]`);
    await section.locator('summary').click();
    await section.locator('.body h4', { hasText: 'Timeline' }).waitFor();
    await expect(section.locator('.body').textContent()).resolves.toContain('Incident record');
    await expect(section.locator('.body').textContent()).resolves.toContain('stdout-clean');
    expect(requests.slice(1)).toEqual([pathToFileURL(join(out, 'report-drills', `drill-${failing.id}.js`)).href]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens and loads the drill a summary.md link names (report.html#drill-<id>, relative)', async () => {
    const failing = results.drills.filter((d) => d.verdict === 'fail').at(-1)!;
    const link = summaryMarkdown(results).match(new RegExp(`\\]\\((report\\.html#drill-${failing.id.replace(/\./g, '\\.')})\\)`))?.[1];
    expect(link).toBe(`report.html#drill-${failing.id}`);
    const page = await browser!.newPage();
    await page.goto(new URL(link!, pathToFileURL(join(out, 'report.html'))).href, { waitUntil: 'load' });
    const section = page.locator(`details.drill[id="drill-${failing.id}"]`);
    await section.locator('.body h4', { hasText: 'Timeline' }).waitFor();
    await expect(section.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(true);
    await expect(section.locator('.body').textContent()).resolves.toContain('Incident record');
    await page.close();
  });

  it('keeps a run within the limit in one self-contained file, with no body files', () => {
    const small = join(tempDir('crash-drill-html-small-'), 'out');
    new HtmlReporter(small).onRunEnd(runResults(drills(small, 3)));
    expect(existsSync(join(small, 'report-drills'))).toBe(false);
    expect(readFileSync(join(small, 'report.html'), 'utf8').match(/<h4>Timeline<\/h4>/g)?.length).toBe(3);
  });
});
