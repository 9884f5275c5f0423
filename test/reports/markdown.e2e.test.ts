/**
 * The Markdown reporter on real run results (the CLI on five small scenarios): the table (a row
 * per client profile when there are several), the closing line, the failed drills as lines linked
 * to report.html, which holds their incident records, the job summary and the GitHub annotations,
 * and Markdown escaping.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotations, code, create, md, MarkdownReporter, StepSummaryError, summaryMarkdown } from '../../reports/markdown.js';
import { renderPage } from '../../reports/html/page.js';
import { esc } from '../../reports/html/escape.js';
import { requirementLine } from '../../harness/results/constants.js';
import type { DrillResult } from '../../reports/types.js';
import type { ExpectationResults } from '../../harness/results/expectation-results.js';
import { drillOf, runReportScenarios, type ReportRun } from './fixtures/cli-run.js';
import { tempDir } from '../support/temp-dir.js';

let run: ReportRun;
let dir: string;
beforeAll(async () => {
  run = await runReportScenarios();
  dir = tempDir('crash-drill-markdown-');
}, 60_000);
afterAll(() => {
  if (run) rmSync(run.dir, { recursive: true, force: true });
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function sink() {
  const chunks: string[] = [];
  return { out: { write: (s: string) => chunks.push(s) }, text: () => chunks.join('') };
}

/** A drill's section of report.html, rendered from the same results (no evidence logs: no timeline). */
function htmlSection(html: string, id: string): string {
  const start = html.indexOf(`<details class="drill v-fail" id="drill-${id}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</details>', start));
}

/** A failed drill's line in summary.md, as the reporter writes it. */
function failedLine(d: DrillResult, subject: string): string {
  return `- ❌ [${d.scenario} ${d.point}/${d.mode}](report.html#drill-${d.id}): subject ${subject}, drill \`${d.id}\``;
}

describe('markdown reporter', () => {
  it('writes <out>/summary.md: the table, then the closing line, then the failed drills', () => {
    const stdout = sink();
    const reporter = create({ outDir: join(dir, 'plain'), env: {}, stdout: stdout.out });
    expect(reporter.name).toBe('markdown');
    expect(reporter.printsToStdio()).toBe(false);
    reporter.onRunEnd(run.results);
    expect(readdirSync(join(dir, 'plain'))).toEqual(['summary.md']);
    const text = readFileSync(join(dir, 'plain', 'summary.md'), 'utf8');
    expect(text).toBe(summaryMarkdown(run.results));
    expect(stdout.text()).toBe(''); // not in GitHub Actions: no annotations
    expect(text).not.toMatch(/\u001b/);

    const table = [
      '| subject / scenario | idle / crash | child-spawned / crash |',
      '| --- | :---: | :---: |',
      '| mcp-server / missing | 💥 error | – |',
      '| ignores-eof / stays-up | ❌ fail | – |',
      '| static-key-holder / key-holder | ❌ fail | – |',
      '| well-behaved / no-child | – | ❔ unknown |',
      '| well-behaved / wb | ✅ pass | – |',
      '',
      '1 passed, 2 failed, 1 unknown, 1 error',
      '',
      '## Failed drills',
    ].join('\n');
    // Scenario files run in name order (e, ie, sk, u, wb), and the rows follow the run.
    expect(text).toContain(table);
    expect(text.startsWith(`# Crash drill summary\n\nRun \`${run.results.runId}\`, ${run.results.startedAt} to ${run.results.finishedAt}, 5 drills.\n\n`)).toBe(
      true,
    );
    expect(text).toContain(`${failedLine(drillOf(run.results, 'stays-up'), 'ignores-eof')}\n`);
    expect(text).toContain(`${failedLine(drillOf(run.results, 'key-holder'), 'static-key-holder')}\n`);
    expect(text).not.toContain('[wb ');
    expect(text).toContain('## Drills without a pass or fail\n\n');
    expect(text).toContain(
      `- 💥 error missing idle/crash (\`${drillOf(run.results, 'missing').id}\`): handshake: the server command could not be started: spawn mcp-server ENOENT`,
    );
    expect(text).toMatch(/- ❔ unknown no-child child-spawned\/crash \(`[^`]+`\): kill point child-spawned not reached within 500 ms/);
  });

  it('gives each failed drill a line linked to report.html with its failed checks, then what each check requires, once', () => {
    const text = summaryMarkdown(run.results);
    const drill = drillOf(run.results, 'stays-up');
    const key = drillOf(run.results, 'key-holder');
    const failedChecks = (d: DrillResult) => d.checks.filter((c) => c.verdict === 'fail');
    const start = text.indexOf('## Failed drills\n');
    const block = text.slice(start, text.indexOf('\n## ', start + 1));
    const lines = block.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '## Failed drills',
      '',
      "Each drill's incident record, timeline and evidence are in report.html (the link on its name) and results.json.",
      '',
    ]);
    const list = [
      failedLine(drill, 'ignores-eof'),
      ...failedChecks(drill).map((c) => `  - **${c.id}**: ${md(c.summary)}`),
      failedLine(key, 'static-key-holder'),
      ...failedChecks(key).map((c) => `  - **${c.id}**: ${md(c.summary)}`),
      '',
      'What the failed checks require:',
      '',
    ];
    expect(lines.slice(4, 4 + list.length)).toEqual(list);
    const checks = new Set<string>([...failedChecks(drill), ...failedChecks(key)].map((c) => c.id));
    const requirements = run.results.requirements!.checks.filter((c) => checks.has(c.id));
    expect(lines.slice(4 + list.length)).toEqual([...requirements.map((c) => `- **${c.id}**: ${md(requirementLine(c.requirement))}`), '']);
    expect(failedChecks(drill).map((c) => c.id)).toContain('exit-on-eof');
    expect(text).toContain('-\\> 200; rotate the long-lived API key');
    // The incident record is no longer in the summary: its fields are in report.html's section.
    for (const field of [
      'Incident record',
      '- Observed at:',
      '- Client:',
      '- Server:',
      '- Termination:',
      '- Follow-up:',
      '- Evidence:',
      '- Session:',
      'authority revoked',
    ])
      expect(text, field).not.toContain(field);
  });

  it('the drill a line links to holds its incident record in report.html', () => {
    const html = renderPage(run.results, new Map());
    const drill = drillOf(run.results, 'stays-up');
    const i = drill.incident;
    const at = (m: { ms: number; at: string | null }) => `${m.ms} ms <span class="muted">(${m.at})</span>`;
    const part = htmlSection(html, drill.id);
    expect(part).toContain(`<dt>observed at</dt><dd>${at(i.observedAt!)}</dd>`);
    expect(part).toContain(`<dt>client</dt><dd>pid ${i.client!.pid}: <code>${esc(i.client!.command)}</code></dd>`);
    expect(part).toContain(
      `<dt>server</dt><dd>pid ${i.server!.pid} (ppid ${i.server!.ppid}, pgid ${i.server!.pgid}): <code>${esc(i.server!.command)}</code></dd>`,
    );
    expect(part).toContain(`<dt>termination</dt><dd>${esc(i.termination)}</dd>`);
    expect(part).toContain('<dt>follow-up</dt><dd><ul><li>listen for the end of stdin yourself, since the SDK 1.x transport does not (typescript-sdk #2002): ');
    // ignores-eof speaks to no drill remote: its record has no session, action or authority.
    expect(part).not.toContain('<dt>session</dt>');

    const k = drillOf(run.results, 'key-holder');
    const key = htmlSection(html, k.id);
    expect(key).toContain(`<dt>session</dt><dd>${esc(k.incident.sessionId)}</dd>`);
    expect(key).toContain(`<dt>revocation</dt><dd>${at(k.incident.revocation!.at)} by harness</dd>`);
    expect(key).toContain('<dt>authorization</dt><dd>session revoked by harness; the long-lived API key was used and is still valid</dd>');
    expect(key).toContain('<li>rotate the long-lived API key: a process of the drill used it after the session was revoked</li>');
  });

  it('without report.html in the run (--reporter markdown), names results.json and links nowhere', () => {
    const reporter = create({ outDir: join(dir, 'md-only'), env: {}, stdout: sink().out, files: ['summary.md', 'results.json'] });
    reporter.onRunEnd(run.results);
    const text = readFileSync(join(dir, 'md-only', 'summary.md'), 'utf8');
    const drill = drillOf(run.results, 'stays-up');
    expect(text).toContain("Each drill's incident record, timeline and evidence are in results.json.\n");
    expect(text).toContain(`\n- ❌ stays-up idle/crash: subject ignores-eof, drill \`${drill.id}\`\n`);
    expect(text).not.toContain('report.html');
  });

  it('under several client profiles: a row per profile, columns kill point × mode', () => {
    const wb = drillOf(run.results, 'wb');
    const as = (n: number, mode: string, profile: string | undefined, verdict: DrillResult['verdict']): DrillResult => ({
      ...structuredClone(wb),
      id: `p${n}`,
      mode: mode as DrillResult['mode'],
      clientProfile: profile as DrillResult['clientProfile'],
      // The range is the profile's: the clone's (ts-sdk's) is not codex's or zed's.
      clientVersions: undefined,
      verdict,
    });
    const drills = [
      as(0, 'crash', 'ts-sdk', 'pass'),
      as(1, 'crash', 'codex', 'fail'),
      as(2, 'close', 'ts-sdk', 'pass'),
      as(3, 'close', 'codex', 'pass'),
      as(4, 'close', 'zed', 'pass'),
    ];
    const text = summaryMarkdown({ ...run.results, drills });
    expect(text).toContain(
      [
        '| subject / scenario | client | idle / crash | idle / close |',
        '| --- | --- | :---: | :---: |',
        '| well-behaved / wb | ts-sdk | ✅ pass | ✅ pass |',
        '| well-behaved / wb | codex | ❌ fail | ✅ pass |',
        '| well-behaved / wb | zed | – | ✅ pass |',
        '',
      ].join('\n'),
    );
    expect(text).toContain('\n- ❌ [wb idle/crash@codex](report.html#drill-p1): subject well-behaved, drill `p1`\n');
    // Under the default profile only, no client column: the table is as it was.
    expect(summaryMarkdown({ ...run.results, drills: [drills[0], drills[2]] })).toContain(
      '| subject / scenario | idle / crash | idle / close |\n| --- | :---: | :---: |\n| well-behaved / wb | ✅ pass | ✅ pass |\n',
    );
  });

  it('a drill not repeated has its own cell with the verdict of the drill that ran, marked =, and its own unsourced steps', () => {
    const wb = drillOf(run.results, 'wb');
    const as = (n: number, mode: string, profile: string, verdict: DrillResult['verdict']): DrillResult => ({
      ...structuredClone(wb),
      id: `p${n}`,
      key: `wb/idle/${mode}@${profile}`,
      mode: mode as DrillResult['mode'],
      clientProfile: profile as DrillResult['clientProfile'],
      clientVersions: undefined,
      verdict,
    });
    const drills = [as(0, 'crash', 'vscode', 'fail'), as(1, 'stop', 'vscode', 'pass'), as(2, 'stop', 'cursor', 'fail')];
    const unsourced = [{ step: 'crash' as const, rests: 'no report of what a server sees when Cursor dies' }];
    const notRepeated = [
      { key: 'wb/idle/crash@cursor', sameAs: 'wb/idle/crash@vscode', scenario: 'wb', clientProfile: 'cursor' as const, unsourcedSteps: unsourced },
    ];
    const text = summaryMarkdown({ ...run.results, drills, notRepeated });
    expect(text).toContain(
      [
        '| subject / scenario | client | idle / crash | idle / stop |',
        '| --- | --- | :---: | :---: |',
        '| well-behaved / wb | vscode | ❌ fail | ✅ pass |',
        '| well-behaved / wb | cursor | = ❌ fail | ❌ fail |',
        '',
        '`=`: not repeated; the verdict of the same drill, which ran under another scenario or client profile, or in close where the client quit with nothing left to reach (results.json `notRepeated`).',
        '',
      ].join('\n'),
    );
    expect(text).toContain('- unsourced client-profile steps used (cursor): crash: no report of what a server sees when Cursor dies\n');
    expect(text).toContain('1 drill was not repeated');
    // The failed drills are the ones that ran: the copy is no line of its own.
    expect(text.match(/^- ❌ /gm)).toHaveLength(2);
    // Without the entry's scenario (results of an older run), no copy and no mark: the cell stays empty.
    const older = summaryMarkdown({ ...run.results, drills, notRepeated: [{ key: 'wb/idle/crash@cursor', sameAs: 'wb/idle/crash@vscode' }] });
    expect(older).toContain('| well-behaved / wb | cursor | – | ❌ fail |\n');
    expect(older).not.toContain('`=`');
  });

  it('names the range drilled and says which client-profile steps rest on no source; a sourced drill says nothing of it', () => {
    const wb = drillOf(run.results, 'wb');
    const unsourced = [{ step: 'stop' as const, rests: 'seen only at the end of a session' }];
    const drills: DrillResult[] = [
      { ...structuredClone(wb), id: 'g0', mode: 'stop', clientProfile: 'gemini-cli@0.27-0.51', clientVersions: '0.27-0.51', verdict: 'fail' },
      { ...structuredClone(wb), id: 'c0', mode: 'stop', clientProfile: 'claude-code', clientVersions: 'observed', unsourcedSteps: unsourced, verdict: 'pass' },
    ];
    const text = summaryMarkdown({ ...run.results, drills });
    expect(text).toContain('| well-behaved / wb | gemini-cli@0.27-0.51 | ❌ fail |');
    expect(text).toContain('\n- ❌ [wb idle/stop@gemini-cli@0.27-0.51](report.html#drill-g0)');
    expect(text).toContain(
      '## Unsourced client-profile steps\n\n- unsourced client-profile steps used (claude-code@observed): stop: seen only at the end of a session\n',
    );
    expect(summaryMarkdown({ ...run.results, drills: [drills[0]] })).not.toContain('Unsourced');
  });

  it('in GitHub Actions, given only the end results (report, merge): appends the Markdown to GITHUB_STEP_SUMMARY and prints ::error annotations', () => {
    const stepSummary = join(dir, 'step-summary.md');
    writeFileSync(stepSummary, 'earlier step\n');
    const stdout = sink();
    new MarkdownReporter(join(dir, 'gh'), { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary }, stdout.out).onRunEnd(run.results);
    const text = readFileSync(join(dir, 'gh', 'summary.md'), 'utf8');
    expect(readFileSync(stepSummary, 'utf8')).toBe(`earlier step\n${text}\n`);
    const lines = stdout.text().trimEnd().split('\n');
    const ids = Object.fromEntries(run.results.drills.map((d) => [d.scenario, d.id]));
    expect(lines).toEqual([
      `::error title=crash-drill error%3A missing idle/crash::${drillOf(run.results, 'missing').reason} (drill ${ids.missing})`,
      expect.stringMatching(/^::error title=crash-drill fail%3A stays-up idle\/crash::exit-on-eof: the server did not exit on EOF/),
      expect.stringMatching(/^::error title=crash-drill fail%3A key-holder idle\/crash::denied-after-revocation: /),
    ]);
  });

  it('while drills run: each failed or errored drill is annotated as it ends, 10 at most, then one notice, and none again at the end', () => {
    const stdout = sink();
    const reporter = new MarkdownReporter(join(dir, 'gh-live'), { GITHUB_ACTIONS: 'true' }, stdout.out);
    const base = drillOf(run.results, 'stays-up');
    const drills: DrillResult[] = [drillOf(run.results, 'wb'), ...Array.from({ length: 12 }, (_, n) => ({ ...structuredClone(base), id: `d${n}` }))];
    const seen: number[] = [];
    for (const [n, d] of drills.entries()) {
      reporter.onDrillEnd(d);
      seen.push(stdout.text().split('\n').length - 1);
      if (n === 0) expect(stdout.text()).toBe(''); // a pass is not annotated
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11]);
    const lines = stdout.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^::error title=crash-drill fail%3A stays-up idle\/crash::exit-on-eof: .*\(drill d0\)$/);
    expect(lines[10]).toBe('::notice title=crash-drill::More drills failed or errored; see summary.md');
    reporter.onRunEnd({ ...run.results, drills });
    expect(stdout.text().trimEnd().split('\n')).toEqual(lines);
  });

  it('without GITHUB_ACTIONS prints nothing, and without GITHUB_STEP_SUMMARY appends nowhere', () => {
    const stdout = sink();
    const stepSummary = join(dir, 'not-written.md');
    const reporter = new MarkdownReporter(join(dir, 'gh-off'), { GITHUB_STEP_SUMMARY: '' }, stdout.out);
    for (const d of run.results.drills) reporter.onDrillEnd(d);
    reporter.onRunEnd(run.results);
    expect(stdout.text()).toBe('');
    expect(existsSync(stepSummary)).toBe(false);
    expect(existsSync(join(dir, 'gh-off', 'summary.md'))).toBe(true);
  });

  it('annotates at most 10 drills, then one notice with how many more; escapes % CR LF , :', () => {
    const base = drillOf(run.results, 'stays-up');
    const drills: DrillResult[] = Array.from({ length: 12 }, (_, n) => ({ ...structuredClone(base), id: `d${n}`, reason: `50% broke,\r\nline: ${n}` }));
    const lines = annotations({ ...run.results, drills });
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('::error title=crash-drill fail%3A stays-up idle/crash::50%25 broke,%0D%0Aline: 0 (drill d0)');
    expect(lines.slice(0, 10).every((l) => l.startsWith('::error '))).toBe(true);
    expect(lines[10]).toBe('::notice title=crash-drill::2 more drills failed or errored; see summary.md');
    expect(annotations({ ...run.results, drills: drills.slice(0, 10) })).toHaveLength(10);
    expect(annotations({ ...run.results, drills: [drillOf(run.results, 'wb'), drillOf(run.results, 'no-child')] })).toEqual([]);
  });

  it('an unwritable GITHUB_STEP_SUMMARY is a typed error, after summary.md is written', () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder, { recursive: true });
    const reporter = new MarkdownReporter(join(dir, 'bad-step'), { GITHUB_STEP_SUMMARY: folder }, sink().out);
    let caught: unknown;
    try {
      reporter.onRunEnd(run.results);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StepSummaryError);
    expect((caught as StepSummaryError).code).toBe('CRASH_DRILL_STEP_SUMMARY');
    expect((caught as Error).message).toContain(folder);
    expect(existsSync(join(dir, 'bad-step', 'summary.md'))).toBe(true);
  });

  it('escapes Markdown: a | in a name keeps the table shape, HTML and control characters do not get through', () => {
    const base = drillOf(run.results, 'stays-up');
    const drill: DrillResult = structuredClone(base);
    drill.scenario = 'a|b <img src=x onerror=alert(1)> *x* [l](u) `c`';
    drill.checks = drill.checks.map((c) => (c.id === 'exit-on-eof' ? { ...c, summary: 'line1\nline2 & \u001b[31mred' } : c));
    const text = summaryMarkdown({ ...run.results, drills: [drill] });
    const row = text.split('\n').find((l) => l.startsWith('| ignores-eof / '))!;
    expect(row).toBe('| ignores-eof / a\\|b \\<img src=x onerror=alert(1)\\> \\*x\\* \\[l\\](u) \\`c\\` | ❌ fail |');
    expect(row.split(/(?<!\\)\|/).length - 2).toBe(2); // two cells, as in the header
    // ESC becomes the visible text \u001b, whose backslash is itself escaped (renders as \u001b).
    expect(text).toContain('- **exit-on-eof**: line1 line2 \\& \\\\u001b\\[31mred');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('md and code: plain text stays plain; a code span outgrows the backticks inside it', () => {
    expect(md('exit-on-eof: pid 12 (ppid 1) CRASH_DRILL_TOKEN')).toBe('exit-on-eof: pid 12 (ppid 1) CRASH_DRILL_TOKEN');
    expect(code('node x.js')).toBe('`node x.js`');
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`x')).toBe('`` `x ``');
  });

  it("under client profiles, a statement's drills are named once, under each profile", () => {
    const expectation: ExpectationResults = {
      notMet: 1,
      servers: [
        {
          server: 'srv',
          command: 'node',
          args: ['s.js'],
          statements: [
            {
              statement: 'leaves-no-helper',
              text: 'leaves no helper process behind',
              status: 'not met',
              checks: ['no-survivors'],
              drills: ['s/idle/crash', 's/idle/crash@codex'],
              profiles: [
                { profile: 'ts-sdk', status: 'not met', drills: ['s/idle/crash'] },
                { profile: 'codex', status: 'met', drills: ['s/idle/crash@codex'] },
              ],
            },
          ],
        },
      ],
    };
    const text = summaryMarkdown({ ...run.results, expectation, baseline: undefined });
    expect(text).toContain(
      [
        '### srv',
        '',
        '`node s.js`',
        '',
        '- ❌ **not met** leaves no helper process behind',
        '  - under `ts-sdk`: not met: `s/idle/crash`',
        '  - under `codex`: met: `s/idle/crash@codex`',
        '',
      ].join('\n'),
    );
  });

  it('with repeats, a cell counts each verdict', () => {
    const base = drillOf(run.results, 'wb');
    const failing: DrillResult = { ...structuredClone(base), id: 'x2', verdict: 'fail' };
    const text = summaryMarkdown({ ...run.results, drills: [base, structuredClone(base), failing] });
    expect(text).toContain('| well-behaved / wb | ✅ pass ×2, ❌ fail ×1 |');
  });
});
