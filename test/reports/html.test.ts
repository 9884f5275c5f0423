/**
 * The HTML reporter without a browser: the page it writes for synthetic evidence run through the
 * real judge, the evidence chain it checks, and escaping. The browser test covers a real run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import { create } from '../../reports/html/reporter.js';
import { renderExpectation } from '../../reports/html/expectation.js';
import { renderMatrix } from '../../reports/html/matrix.js';
import type { DrillLine } from '../../reports/html/types.js';
import { EvidenceBuilder, survivor } from '../checks/evidence-builder.js';
import { tempDir } from '../support/temp-dir.js';
import { childSpawned, passed, runResults } from './fixtures.js';

/** A drill whose server ignored EOF, with its evidence log written into `out/evidence`. */
function failedWithLog(out: string) {
  const evidence = new EvidenceBuilder({ drillId: 'cd-x-0001', point: 'idle', mode: 'crash' })
    .start(1000)
    .spawned(1010)
    .handshake(1100)
    .pointReached(1200)
    .clientLost(1200, 'crash', 'the client was SIGKILLed')
    .snapshot(1700, [survivor()])
    .serverExit(1900, { code: null, signal: 'SIGTERM' })
    .end(2000)
    .build();
  const result = judge(evidence);
  result.evidence = writeEvidenceLog(join(out, 'evidence'), evidence);
  return result;
}

function report(out: string, drills: ReturnType<typeof passed>[]): string {
  create({ outDir: out }).onRunEnd(runResults(drills));
  return readFileSync(join(out, 'report.html'), 'utf8');
}

describe('html reporter', () => {
  it('writes one page with the summary line, the matrix and a timeline from the evidence log', () => {
    const out = tempDir();
    const failed = failedWithLog(out);
    const html = report(out, [passed(), failed]);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<p class="summary-line" id="summary-line">1 passed, 1 failed, 0 unknown</p>');
    expect(html).toContain(`<a class="chip v-fail" href="#drill-${failed.id}"`);
    expect(html).toMatch(/<td class="ms">200\.0<\/td><td><span class="dot lane-kill"><\/span>kill<\/td><td>client lost: the client was SIGKILLed<\/td>/);
    expect(html).toMatch(/<td class="ms">700\.0<\/td><td><span class="dot lane-survivors"><\/span>survivors<\/td><td>grace-end: 1 survivor: pid \d+<\/td>/);
    expect(html).toContain('chain intact');
    // The failed drill comes first and open; the passed one is closed.
    expect(html.indexOf(`id="drill-${failed.id}" open`)).toBeGreaterThan(0);
    expect(html.indexOf(`id="drill-${failed.id}"`)).toBeLessThan(html.indexOf(`id="drill-${passed().id}"`));
    expect(html).toContain(`id="drill-${passed().id}">`);
  });

  it('says when the evidence chain is broken, cut short or missing', () => {
    const out = tempDir();
    const failed = failedWithLog(out);
    const file = join(out, 'evidence', failed.evidence!.file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');

    writeFileSync(file, [lines[0], lines[1].replace('"t":1010', '"t":1011'), ...lines.slice(2)].join('\n') + '\n');
    expect(report(out, [failed])).toContain('broken at line 3: its prev does not hash the line before');

    writeFileSync(file, lines.slice(0, -1).join('\n') + '\n');
    expect(report(out, [failed])).toContain('the head differs from the one in results.json (the log was cut or changed)');

    const gone = { ...failed, evidence: { ...failed.evidence!, file: 'nope.jsonl' } };
    const html = report(out, [gone]);
    expect(html).toContain('cannot read the evidence log: ENOENT');
    expect(html).toContain('No timeline: the evidence log is not available.');
  });

  it('names the process a child-spawned point fired on: pid, start time, argv', () => {
    const html = report(tempDir(), [childSpawned()]);
    expect(html).toContain(
      'child-spawned fired on pid 5151 (start time 123456, started 20 ms after the call was written, alive 204 ms after its exec was seen): <code>sleep 300</code>',
    );
  });

  it("says in a drill's section which client-profile steps it used rest on no source, and names its range", () => {
    const unsourced = {
      ...passed(),
      mode: 'stop' as const,
      clientProfile: 'claude-code' as const,
      clientVersions: 'observed',
      unsourcedSteps: [{ step: 'stop' as const, rests: 'seen at a session end <not one server>' }],
    };
    const html = report(tempDir(), [unsourced]);
    expect(html).toContain(
      '<p class="unsourced">unsourced client-profile steps used (claude-code@observed): stop: seen at a session end &lt;not one server&gt;</p>',
    );
    expect(html).toContain('/stop@claude-code@observed');
    expect(report(tempDir(), [passed()])).not.toContain('class="unsourced"');
  });

  it('escapes every text: a reason, a summary or a scenario holding markup stays text', () => {
    const out = tempDir();
    const d = passed();
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';
    const drill = { ...d, scenario: evil, reason: evil, checks: d.checks.map((c) => ({ ...c, summary: evil })) };
    const html = report(out, [drill]);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;');
    expect(html.match(/<script>/g)).toHaveLength(1); // the page's own
  });

  it('gives each client profile a row of its own under its scenario, columns kill point × mode', () => {
    const line = (id: string, mode: string, clientProfile: string | undefined, verdict: DrillLine['verdict']): DrillLine => ({
      id,
      key: `s/${id}`,
      scenario: 's',
      point: 'idle',
      mode: mode as DrillLine['mode'],
      clientProfile: clientProfile as DrillLine['clientProfile'],
      verdict,
      reason: verdict,
      durationMs: 1,
      subject: { name: 'srv' },
    });
    const chip = (id: string, v: string, text: string) => `<a class="chip v-${v}" href="#drill-${id}" data-drill="${id}" title="${v}: ${v}">${text}</a>`;
    const drills = [line('a', 'crash', 'ts-sdk', 'pass'), line('b', 'crash', 'codex', 'fail'), line('c', 'close', 'ts-sdk', 'pass')];
    expect(renderMatrix(drills)).toBe(
      '<table class="matrix profiled"><thead><tr><th rowspan="2">scenario / subject</th><th rowspan="2">client</th><th colspan="2" class="point">idle</th></tr>' +
        '<tr><th class="mode">crash</th><th class="mode">close</th></tr></thead><tbody>' +
        `<tr class="group"><th class="scenario" rowspan="2">s<span class="subject">srv</span></th><th class="profile">ts-sdk</th><td class="cell v-pass">${chip('a', 'pass', 'pass')}</td><td class="cell v-pass">${chip('c', 'pass', 'pass')}</td></tr>` +
        `<tr><th class="profile">codex</th><td class="cell v-fail">${chip('b', 'fail', 'FAIL')}</td><td class="cell empty">&middot;</td></tr>` +
        '</tbody></table>',
    );
    // A drill not repeated (codex's close, the same drill as ts-sdk's): its own cell, the chip of the drill that ran, marked.
    const same = `<a class="chip v-pass same-as" href="#drill-c" data-drill="c" title="not repeated, the same drill as s/c: pass: pass">= pass</a>`;
    expect(renderMatrix(drills, [{ key: 's/close@codex', sameAs: 's/c', scenario: 's', clientProfile: 'codex' }])).toBe(
      '<table class="matrix profiled"><thead><tr><th rowspan="2">scenario / subject</th><th rowspan="2">client</th><th colspan="2" class="point">idle</th></tr>' +
        '<tr><th class="mode">crash</th><th class="mode">close</th></tr></thead><tbody>' +
        `<tr class="group"><th class="scenario" rowspan="2">s<span class="subject">srv</span></th><th class="profile">ts-sdk</th><td class="cell v-pass">${chip('a', 'pass', 'pass')}</td><td class="cell v-pass">${chip('c', 'pass', 'pass')}</td></tr>` +
        `<tr><th class="profile">codex</th><td class="cell v-fail">${chip('b', 'fail', 'FAIL')}</td><td class="cell v-pass">${same}</td></tr>` +
        '</tbody></table><p class="muted">= : not repeated; the verdict of the same drill, which ran under another scenario or client profile, or in close where the client quit with nothing left to reach (results.json notRepeated).</p>',
    );
    // Under the default profile only: one row a scenario, no client column, as before profiles.
    expect(renderMatrix([drills[0], drills[2]])).toBe(
      '<table class="matrix"><thead><tr><th rowspan="2">scenario / subject</th><th colspan="2" class="point">idle</th></tr>' +
        '<tr><th class="mode">crash</th><th class="mode">close</th></tr></thead><tbody>' +
        `<tr><th class="scenario">s<span class="subject">srv</span></th><td class="cell v-pass">${chip('a', 'pass', 'pass')}</td><td class="cell v-pass">${chip('c', 'pass', 'pass')}</td></tr>` +
        '</tbody></table>',
    );
  });
  it("links a statement's drill not repeated to the drill that ran in its place", () => {
    const expectation = {
      servers: [
        {
          server: 'srv',
          command: 'node',
          args: ['srv.js'],
          statements: [
            {
              statement: 'leaves-no-helper' as const,
              text: 'leaves no helper',
              status: 'met' as const,
              checks: [],
              drills: ['s/idle/crash@vscode', 's/idle/crash@cursor'],
            },
          ],
        },
      ],
      notMet: 0,
    };
    const drills = [{ id: 'r1', key: 's/idle/crash@vscode' }];
    const link = (key: string) => `<a class="drill-key" href="#drill-r1" data-drill="r1"><code>${key}</code></a>`;
    const html = renderExpectation(expectation, undefined, drills, [{ key: 's/idle/crash@cursor', sameAs: 's/idle/crash@vscode' }]);
    expect(html).toContain(`${link('s/idle/crash@vscode')} ${link('s/idle/crash@cursor')}`);
    expect(renderExpectation(expectation, undefined, drills)).toContain(`${link('s/idle/crash@vscode')} <code>s/idle/crash@cursor</code>`);
  });
});
