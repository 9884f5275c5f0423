/**
 * The cleanup-expectation page of report.html, opened in a real headless Chromium
 * (test/reports/fixtures/npm-chromium.ts), from a real run of the CLI on two fake servers side
 * by side (`--subject` twice): one column per server, each statement coloured by its status,
 * the deciding drills linked to their sections, and the point or mode that would show a
 * statement no drill showed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { runCli, type CliRun } from '../support/cli.js';
import { fakeSubject, scenarioYaml } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { NPM_CHROMIUM_ARGS, npmChromium } from './fixtures/npm-chromium.js';

const root = packageRoot();
const WB = join(root, 'dist/fake-servers/well-behaved.js');
const IE = join(root, 'dist/fake-servers/ignores-eof.js');

let run: CliRun;
let results: RunResults;
let browser: Browser | undefined;
let page: Page;
const consoleErrors: string[] = [];
const pageErrors: string[] = [];

const cell = (server: string, statement: string) => page.locator(`td.st[data-server="${server}"][data-statement="${statement}"]`);

beforeAll(async () => {
  const dir = tempDir('crash-drill-expectation-html-');
  writeFileSync(
    join(dir, 'side.yaml'),
    scenarioYaml({
      id: 'side',
      subject: fakeSubject('well-behaved'),
      target: { call: 'echo', args: { text: 'hi' } },
      points: ['idle'],
      modes: ['crash'],
      expect: { 'exit-on-eof': { deadline: 1500 }, 'no-survivors': { grace: 800 } },
      timeouts: { 'close-wait': 800 },
      expectation: ['exits-within', 'leaves-no-helper', 'no-write-after-loss'],
    }),
  );
  const out = join(dir, 'out');
  run = await runCli(['run', dir, '--subject', `node ${WB}`, '--subject', `node ${IE}`, '--out', out, '--reporter', 'html']);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  const npm = npmChromium();
  // Chromium keeps a profile folder in TMPDIR and does not always remove it at close: one of the test's own, removed with the file.
  browser = await chromium.launch({
    executablePath: npm.executablePath,
    env: { ...npm.env, TMPDIR: tempDir('crash-drill-chromium-') },
    args: NPM_CHROMIUM_ARGS,
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the cleanup expectation in a real browser', () => {
  it('comes from a real run of two servers, and loads with no error', () => {
    expect(results.summary, `${run.stdout}\n${run.stderr}`).toEqual({ pass: 1, fail: 1, unknown: 0, error: 0 });
    expect(run.code).toBe(1);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('sets the servers side by side, one column each, a row per statement', async () => {
    await expect(page.locator('#expectation').textContent()).resolves.toBe('Cleanup expectation');
    await expect(page.locator('#expectation-line').textContent()).resolves.toBe('1 statement not met fails the run.');
    await expect(page.locator('table.expectation th.server').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-server')))).resolves.toEqual([
      'well-behaved.js',
      'ignores-eof.js',
    ]);
    await expect(page.locator('table.expectation th.server .command').allTextContents()).resolves.toEqual([`node ${WB}`, `node ${IE}`]);
    await expect(page.locator('table.expectation th.statement').allTextContents()).resolves.toEqual([
      'exits within N ms after its input closes',
      'leaves no helper process behind',
      'no new external write after losing its client',
    ]);
  });

  it('colours each statement by its status: met green, not met red', async () => {
    const status = (server: string, statement: string) =>
      cell(server, statement).evaluate((td) => [td.getAttribute('data-status'), getComputedStyle(td.querySelector('.status') as Element).color]);
    await expect(status('well-behaved.js', 'exits-within')).resolves.toEqual(['met', 'rgb(26, 127, 55)']);
    await expect(status('ignores-eof.js', 'exits-within')).resolves.toEqual(['not met', 'rgb(207, 34, 46)']);
    await expect(status('ignores-eof.js', 'leaves-no-helper')).resolves.toEqual(['met', 'rgb(26, 127, 55)']);
    await expect(status('ignores-eof.js', 'no-write-after-loss')).resolves.toEqual(['not shown', 'rgb(154, 103, 0)']);
    await expect(cell('ignores-eof.js', 'exits-within').locator('.text').textContent()).resolves.toBe('exits within 1500 ms after its input closes');
  });

  it('names the point and mode that would show a statement no drill showed', async () => {
    for (const server of ['well-behaved.js', 'ignores-eof.js'])
      await expect(cell(server, 'no-write-after-loss').locator('.hint').textContent()).resolves.toBe(
        'would be shown by a drill at point sent or confirmed in mode crash or close, with a remote: section the server writes to',
      );
  });

  it('links each deciding drill to its section, which opens', async () => {
    const failed = results.drills.find((d) => d.subject.name === 'ignores-eof.js');
    if (!failed) throw new Error('no drill of ignores-eof.js');
    const link = cell('ignores-eof.js', 'exits-within').locator('a.drill-key');
    await expect(link.textContent()).resolves.toBe('side/ignores-eof.js/idle/crash');
    await expect(link.getAttribute('href')).resolves.toBe(`#drill-${failed.id}`);
    const section = page.locator(`details.drill[id="drill-${failed.id}"]`);
    await section.evaluate((d) => {
      (d as HTMLDetailsElement).open = false;
    });
    // The page opens the target on hashchange (reports/html/assets.ts), a task after the click
    // itself: wait for that event, heard after the page's own listener, not for the click alone.
    await page.evaluate(() => {
      history.replaceState(null, '', location.pathname + location.search);
      const w = window as unknown as { hashChanged?: Promise<void> };
      w.hashChanged = new Promise((resolve) => window.addEventListener('hashchange', () => resolve(), { once: true }));
    });
    await link.click();
    await page.evaluate(() => (window as unknown as { hashChanged: Promise<void> }).hashChanged);
    await expect(section.evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(true);
  });
});
