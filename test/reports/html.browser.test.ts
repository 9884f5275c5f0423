/**
 * The HTML report, opened in a real headless Chromium (the one the npm package
 * @sparticuz/chromium ships, so no system browser is needed: fixtures/npm-chromium.ts): from a
 * real run of the CLI on small scenarios (a pass, two fails, an unknown, an error), the page
 * must load with no console or page error, fetch nothing but itself, colour the failing cells,
 * show a failed check's summary and the incident record, and render an injected `<script>` as
 * text.
 */
import { readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/util/paths.js';
import type { DrillResult, RunResults } from '../../reports/types.js';
import { runCli, type CliRun } from '../support/cli.js';
import { until } from '../support/until.js';
import { fakeSubject, MISSING_COMMAND_YAML, noChildYaml, scenarioYaml, type FakeServer, type ScenarioParts } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { NPM_CHROMIUM_ARGS, npmChromium } from './fixtures/npm-chromium.js';

/** Short, but with room for a loaded 2-core machine: the verdicts must not depend on timing. */
const FAST: ScenarioParts = { expect: { 'exit-on-eof': { deadline: 1500 }, 'no-survivors': { grace: 800 } }, timeouts: { 'close-wait': 800 } };
const INJECTED = '<script>__pwned=1</script>';
const root = packageRoot();

const SCENARIOS: Record<string, string> = {
  'wb.yaml': scenarioYaml({
    id: 'wb',
    subject: fakeSubject('well-behaved'),
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle'],
    modes: ['crash'],
    ...FAST,
  }),
  // The extra argument lands in the survivor's cmdline, so in the no-survivors summary (which
  // keeps 80 characters of it: hence a short symlink to the fake server, made in beforeAll).
  'ie.yaml': scenarioYaml({
    id: 'ie',
    subject: { command: 'node', args: ['@DIR@/i.js', INJECTED], name: 'ignores-eof' },
    target: { call: 'echo', args: { text: 'hi' } },
    points: ['idle'],
    modes: ['crash'],
    ...FAST,
  }),
  'skh.yaml': scenarioYaml({
    id: 'skh',
    subject: fakeSubject('static-key-holder' as FakeServer, { CRASH_DRILL_API_KEY: '{{remote.apiKey}}' }),
    target: { call: 'write', args: { op: 'deploy', target: 'web' } },
    points: ['sent'],
    modes: ['crash'],
    remote: {},
    ...FAST,
  }),
  'u.yaml': noChildYaml(),
  'e.yaml': MISSING_COMMAND_YAML,
};

/** (pid, start time) of every process below ours whose command is chromium: what the browser started. */
interface Identity {
  pid: number;
  startTime: number;
}

function stat(pid: number): { ppid: number; startTime: number; state: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // Fields after the comm: [0] is field 3 (state), so field N is rest[N - 3].
    return { state: rest[0], ppid: Number(rest[1]), startTime: Number(rest[19]) };
  } catch {
    return null;
  }
}

function chromiumDescendants(): Identity[] {
  const out: Identity[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    let s = stat(pid);
    if (!s || s.state === 'Z') continue;
    const own = s;
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmd.includes('chromium')) continue;
    for (let p = own.ppid, hops = 0; p > 1 && hops < 20; hops++) {
      if (p === process.pid) {
        out.push({ pid, startTime: own.startTime });
        break;
      }
      s = stat(p);
      if (!s) break;
      p = s.ppid;
    }
  }
  return out;
}

/** Gone, or a zombie (kill(pid, 0) succeeds on zombies, so read the state), or a new process under the same pid. */
function exited(id: Identity): boolean {
  const s = stat(id.pid);
  return !s || s.state === 'Z' || s.startTime !== id.startTime;
}

let dir: string;
let out: string;
let run: CliRun;
let results: RunResults;
let html: string;
let browser: Browser | undefined;
let page: Page;
let browserProcesses: Identity[] = [];
const consoleErrors: string[] = [];
const pageErrors: string[] = [];
const requests: string[] = [];

function drill(scenario: string): DrillResult {
  const d = results.drills.find((x) => x.scenario === scenario);
  if (!d) throw new Error(`no drill of ${scenario}`);
  return d;
}

function section(d: DrillResult) {
  return page.locator(`details.drill[id="drill-${d.id}"]`);
}

beforeAll(async () => {
  dir = tempDir('crash-drill-html-');
  for (const [name, text] of Object.entries(SCENARIOS)) writeFileSync(join(dir, name), text.replace('@DIR@', dir));
  symlinkSync(join(root, 'dist/fake-servers/ignores-eof.js'), join(dir, 'i.js'));
  out = join(dir, 'out');
  run = await runCli(['run', dir, '--out', out, '--reporter', 'html', '--concurrency', '2']);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  html = readFileSync(join(out, 'report.html'), 'utf8');

  const npm = npmChromium();
  // Chromium keeps a profile folder in TMPDIR and does not always remove it at close: one of the test's own, removed with the file.
  browser = await chromium.launch({
    executablePath: npm.executablePath,
    env: { ...npm.env, TMPDIR: tempDir('crash-drill-chromium-') },
    args: NPM_CHROMIUM_ARGS,
  });
  browserProcesses = chromiumDescendants();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
}, 120_000);

afterAll(async () => {
  // Renderers start with the page: take every browser process again before closing.
  const seen = new Set(browserProcesses.map((p) => `${p.pid}:${p.startTime}`));
  browserProcesses.push(...chromiumDescendants().filter((p) => !seen.has(`${p.pid}:${p.startTime}`)));
  await browser?.close();
  // close() waits for the browser; its helpers may take a moment longer. Then nothing may remain.
  const left = await until('the chromium processes to exit', () => (browserProcesses.every(exited) ? 'none' : null), 15_000).catch(() => 'some');
  for (const id of browserProcesses) {
    if (!exited(id)) process.kill(id.pid, 'SIGKILL'); // identity re-checked just above by exited()
  }
  expect(left).toBe('none');
  expect(chromiumDescendants()).toEqual([]);
}, 60_000);

/** The incident record's rows that only a drill with a remote has (harness/results/incident.ts hadRemote). */
const REMOTE_ROWS = [
  'session',
  'authorization',
  'last action started at',
  'last successful action at',
  'last attempted action at',
  'effects',
  'jobs',
  'revocation',
];

describe('the HTML report in a real browser', () => {
  it('comes from a real run with every verdict', () => {
    expect(results.summary, `${run.stdout}\n${run.stderr}`).toEqual({ pass: 1, fail: 2, unknown: 1, error: 1 });
    expect(run.code).toBe(1);
    // The identity scan sees the browser and its renderer, so the afterAll check means something.
    expect(browserProcesses.length).toBeGreaterThan(0);
    expect(chromiumDescendants().length).toBeGreaterThan(0);
  });

  it('loads with no console error, no page error, and fetches nothing but itself', async () => {
    expect(await page.title()).toContain('1 passed, 2 failed, 1 unknown, 1 error');
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(join(out, 'report.html')).href]);
    // Self-contained: no external resource is even referenced.
    expect(html).not.toMatch(/<link\b|\bsrc=|@import|url\(|https?:\/\//i);
  });

  it('shows the summary line in the header', async () => {
    await expect(page.locator('#summary-line').textContent()).resolves.toBe('1 passed, 2 failed, 1 unknown, 1 error');
  });

  it('colours each matrix cell by its verdict and links it to its drill', async () => {
    for (const d of results.drills) {
      const chip = page.locator(`a.chip[data-drill="${d.id}"]`);
      await expect(chip.getAttribute('class')).resolves.toBe(`chip v-${d.verdict}`);
      await expect(chip.getAttribute('href')).resolves.toBe(`#drill-${d.id}`);
    }
    const colour = (scenario: string) => page.locator(`a.chip[data-drill="${drill(scenario).id}"]`).evaluate((el) => getComputedStyle(el).backgroundColor);
    await expect(colour('ie')).resolves.toBe('rgb(207, 34, 46)');
    await expect(colour('skh')).resolves.toBe('rgb(207, 34, 46)');
    await expect(colour('wb')).resolves.toBe('rgb(26, 127, 55)');
    await expect(page.locator('td.cell.v-fail').count()).resolves.toBe(2);
    await expect(page.locator('td.cell.v-pass').count()).resolves.toBe(1);
  });

  it('lists failed drills first and open, passed ones closed; a matrix link opens its drill', async () => {
    const order = await page.locator('details.drill').evaluateAll((els) => els.map((e) => e.className.replace('drill ', '')));
    expect(order).toEqual(['v-fail', 'v-fail', 'v-error', 'v-unknown', 'v-pass']);
    await expect(section(drill('ie')).evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(true);
    const passed = section(drill('wb'));
    await expect(passed.evaluate((el) => (el as HTMLDetailsElement).open)).resolves.toBe(false);
    await page.locator(`a.chip[data-drill="${drill('wb').id}"]`).click();
    await page.waitForFunction((id) => (document.getElementById(id) as HTMLDetailsElement).open, `drill-${drill('wb').id}`, { timeout: 10_000 });
  });

  it("shows a failed drill's failed check summaries and its incident record", async () => {
    const ie = drill('ie');
    const body = section(ie);
    for (const check of ie.checks.filter((c) => c.verdict === 'fail')) {
      await expect(body.locator('tr.check.v-fail td.summary', { hasText: check.summary.slice(0, 40) }).count()).resolves.toBe(1);
      await expect(body.locator('tr.check.v-fail').filter({ hasText: check.id }).locator('td.summary .text').textContent()).resolves.toBe(check.summary);
    }
    const incident = await body.locator('dl.incident').innerText();
    expect(incident).toContain(ie.incident.termination);
    expect(incident).toContain(`${ie.incident.clientUnavailableAt!.ms} ms`);
    for (const followUp of ie.incident.followUp) expect(incident).toContain(followUp);
    for (const label of ['observed at', 'client', 'server', 'client unavailable at', 'action', 'termination', 'follow-up']) {
      await expect(body.locator('dl.incident dt', { hasText: new RegExp(`^${label}$`) }).count()).resolves.toBe(1);
    }
    // ignores-eof speaks to no drill remote: its record has none of the remote's rows.
    expect(ie.incident.authorization).toBeUndefined();
    for (const label of REMOTE_ROWS) {
      await expect(body.locator('dl.incident dt', { hasText: new RegExp(`^${label}$`) }).count(), label).resolves.toBe(0);
    }
    // The revocation drill: the failed check and the revocation on its incident record.
    const skh = drill('skh');
    const denied = skh.checks.find((c) => c.id === 'denied-after-revocation')!;
    expect(denied.verdict).toBe('fail');
    await expect(section(skh).locator('tr.check.v-fail td.summary .text').textContent()).resolves.toBe(denied.summary);
    await expect(section(skh).locator('dl.incident').innerText()).resolves.toContain(`by ${skh.incident.revocation!.operator}`);
    // static-key-holder has a remote: every remote row is there.
    for (const label of REMOTE_ROWS) {
      await expect(
        section(skh)
          .locator('dl.incident dt', { hasText: new RegExp(`^${label}$`) })
          .count(),
        label,
      ).resolves.toBe(1);
    }
    // What the tracking could see, and what it cannot.
    const text = await body.innerText();
    expect(text).toContain(ie.tracking!.methods.join(', '));
    for (const spot of ie.tracking!.blindSpots) expect(text).toContain(spot);
  });

  it('renders a <script> in a summary as text, and never runs it', async () => {
    const summary = drill('ie').checks.find((c) => c.id === 'no-survivors')!.summary;
    expect(summary).toContain(INJECTED); // the attack really reached a summary
    await expect(section(drill('ie')).locator('tr.check', { hasText: 'no-survivors' }).locator('td.summary').textContent()).resolves.toContain(INJECTED);
    await expect(page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).resolves.toBeUndefined();
    await expect(page.locator('script').count()).resolves.toBe(1); // ours, at the end
    expect(html).not.toContain(INJECTED);
  });

  it('draws the timeline on one axis: the kill, the loss and the server exit at their moments', async () => {
    const ie = drill('ie');
    const rows = await section(ie)
      .locator('table.tl tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    const at = (what: RegExp) => rows.find((r) => what.test(r[2]));
    const lost = at(/^client lost/);
    expect(lost).toBeDefined();
    expect(Math.abs(Number(lost![0]) - ie.incident.clientUnavailableAt!.ms)).toBeLessThanOrEqual(1);
    const ms = rows.map((r) => Number(r[0]));
    expect(ms).toEqual([...ms].sort((a, b) => a - b));
    expect(at(/^kill \(crash, SIGKILL\)/)).toBeDefined();
    expect(at(/^server exited/)).toBeDefined();
    expect(Number(at(/^server exited/)![0])).toBeGreaterThan(Number(lost![0]));
    expect(at(/SIGTERM: sent/)?.[1]).toBe('containment');
    expect(at(/grace-end: 1 survivor/)?.[1]).toBe('survivors');
    await expect(section(ie).locator('.mark-kill').count()).resolves.toBe(1);
    // The remote drill shows revocation and the remote's requests on the same axis.
    const skhRows = await section(drill('skh')).locator('table.tl tbody tr td:nth-child(2)').allTextContents();
    expect(skhRows).toEqual(expect.arrayContaining(['revocation', 'remote', 'kill', 'retry']));
    // The unknown drill says why; the error drill has its spawn error.
    await expect(section(drill('no-child')).locator('table.tl').innerText()).resolves.toMatch(/point child-spawned not reached within 500 ms/);
    await expect(section(drill('missing')).innerText()).resolves.toMatch(/could not be started/);
  });

  it('carries no token and no Authorization header', () => {
    expect(html).not.toMatch(/cd[tk]_[A-Za-z0-9_-]{20,}/);
    expect(html).not.toMatch(/Bearer /i);
    expect(html).not.toMatch(/\x1b\[/);
  });

  it('takes a screenshot (looked at by hand when the report changes)', async () => {
    const file = join(dir, 'report.png');
    await page.goto(pathToFileURL(join(out, 'report.html')).href, { waitUntil: 'load' });
    await page.screenshot({ path: file, fullPage: false });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
