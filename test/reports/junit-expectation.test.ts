/**
 * The cleanup expectation in junit.xml (reports/junit-expectation.ts): a suite `cleanup
 * expectation`, a testcase per server and statement. The exact XML for a run whose statements are
 * all met and for one where a statement is not met (new, and known to the baseline), one is not
 * shown and a baseline statement is stale; the file stays valid against junit-10.xsd; a run
 * without an expectation gets no such suite.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { create, junitXml } from '../../reports/junit.js';
import type { ExpectationResults, RunResults } from '../../harness/results/types.js';
import { tempDir } from '../support/temp-dir.js';
import { passed, runResults } from './fixtures.js';
import { validateJunit } from './fixtures/junit-xsd.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SERVER = { server: 'slow & "odd"', command: 'node', args: ['server.js', '<x>'] };

const MET: ExpectationResults = {
  servers: [
    {
      ...SERVER,
      statements: [
        {
          statement: 'stops-accepting-calls',
          text: 'stops accepting calls after its input closes',
          status: 'met',
          checks: ['exit-on-eof'],
          drills: ['wb/idle/crash', 'wb/idle/close'],
        },
        { statement: 'leaves-no-helper', text: 'leaves no helper process behind', status: 'met', checks: ['no-survivors'], drills: ['wb/idle/crash'] },
      ],
    },
  ],
  notMet: 0,
};

const NOT_MET: ExpectationResults = {
  servers: [
    {
      ...SERVER,
      statements: [
        {
          statement: 'exits-within',
          ms: 500,
          text: 'exits within 500 ms after its input closes',
          status: 'not met',
          checks: ['exit-on-eof'],
          drills: ['wb/in-flight/crash'],
          couldNotTell: ['wb/idle/close'],
        },
        {
          statement: 'leaves-no-helper',
          text: 'leaves no helper process behind',
          status: 'not met',
          checks: ['no-survivors'],
          drills: ['wb/idle/crash'],
          known: { reason: 'the helper is on purpose' },
        },
        {
          statement: 'cancel-honoured',
          text: 'cancel honoured',
          status: 'not shown',
          checks: ['silent-after-cancel', 'stops-after-cancel'],
          drills: [],
          wouldShow: { points: ['in-flight'], modes: ['cancel'], remote: false, text: 'a cancel drill at in-flight' },
        },
      ],
    },
  ],
  notMet: 1,
  known: 1,
};

function suiteOf(xml: string): string | null {
  const start = xml.indexOf('  <testsuite name="cleanup expectation"');
  return start < 0 ? null : xml.slice(start, xml.indexOf('  </testsuite>\n', start) + '  </testsuite>\n'.length);
}

async function written(results: RunResults): Promise<string> {
  const dir = tempDir('crash-drill-junit-expectation-');
  dirs.push(dir);
  create({ outDir: dir }).onRunEnd(results);
  const file = join(dir, 'junit.xml');
  const lint = await validateJunit(file);
  expect(lint.output).toBe('junit.xml validates\n');
  return readFileSync(file, 'utf8');
}

describe('junit.xml: the cleanup expectation', () => {
  it('passes a testcase per statement met, with the checks and drills that showed it', async () => {
    const xml = await written(runResults([passed()], { expectation: MET }));
    expect(suiteOf(xml)).toBe(
      [
        '  <testsuite name="cleanup expectation" tests="2" failures="0" errors="0" skipped="0" time="0.000" timestamp="2026-01-01T00:00:00.000Z" id="1">',
        '    <properties>',
        '      <property name="run-id" value="cd-20260101T000000-abcdef"/>',
        '      <property name="slow &amp; &quot;odd&quot; command" value="node server.js &lt;x&gt;"/>',
        '    </properties>',
        '    <testcase name="slow &amp; &quot;odd&quot;: stops accepting calls after its input closes" classname="cleanup expectation" time="0.000">',
        '      <system-out>checks: exit-on-eof',
        'drills: wb/idle/crash, wb/idle/close',
        '</system-out>',
        '    </testcase>',
        '    <testcase name="slow &amp; &quot;odd&quot;: leaves no helper process behind" classname="cleanup expectation" time="0.000">',
        '      <system-out>checks: no-survivors',
        'drills: wb/idle/crash',
        '</system-out>',
        '    </testcase>',
        '  </testsuite>',
        '',
      ].join('\n'),
    );
    expect(xml).toMatch(/^<testsuites name="mcp-crash-drill" tests="5" failures="0" errors="0" time="[0-9.]+">$/m);
  });

  it('fails a statement not met, skips one the baseline knows and one not shown, and fails a stale baseline statement', async () => {
    const baseline = {
      file: 'crash-drill.baseline.json',
      entries: 0,
      known: 0,
      stale: [],
      statements: { entries: 2, known: 1, stale: [{ server: SERVER.server, statement: 'stops-accepting-calls' as const, reason: 'was slow' }] },
    };
    const xml = await written(runResults([passed()], { expectation: NOT_MET, baseline }));
    expect(suiteOf(xml)).toBe(
      [
        '  <testsuite name="cleanup expectation" tests="4" failures="2" errors="0" skipped="2" time="0.000" timestamp="2026-01-01T00:00:00.000Z" id="1">',
        '    <properties>',
        '      <property name="run-id" value="cd-20260101T000000-abcdef"/>',
        '      <property name="slow &amp; &quot;odd&quot; command" value="node server.js &lt;x&gt;"/>',
        '    </properties>',
        '    <testcase name="slow &amp; &quot;odd&quot;: exits within 500 ms after its input closes" classname="cleanup expectation" time="0.000">',
        '      <failure message="not met: exits within 500 ms after its input closes" type="expectation-not-met">slow &amp; "odd" exits within 500 ms after its input closes: not met, shown by wb/in-flight/crash',
        '</failure>',
        '      <system-out>checks: exit-on-eof',
        'drills: wb/in-flight/crash',
        'could not tell: wb/idle/close',
        '</system-out>',
        '    </testcase>',
        '    <testcase name="slow &amp; &quot;odd&quot;: leaves no helper process behind" classname="cleanup expectation" time="0.000">',
        '      <skipped message="known (baseline): the helper is on purpose" type="known">slow &amp; "odd" leaves no helper process behind: not met, shown by wb/idle/crash',
        '</skipped>',
        '      <system-out>checks: no-survivors',
        'drills: wb/idle/crash',
        '</system-out>',
        '    </testcase>',
        '    <testcase name="slow &amp; &quot;odd&quot;: cancel honoured" classname="cleanup expectation" time="0.000">',
        '      <skipped message="not shown: would be shown by a cancel drill at in-flight" type="not-shown"/>',
        '      <system-out>checks: silent-after-cancel, stops-after-cancel',
        '</system-out>',
        '    </testcase>',
        '    <testcase name="slow &amp; &quot;odd&quot;: stops accepting calls after its input closes (baseline)" classname="cleanup expectation" time="0.000">',
        '      <failure message="stale baseline statement: slow &amp; &quot;odd&quot; stops-accepting-calls is met now; remove it from crash-drill.baseline.json, or run again with --update-baseline to rewrite the file" type="stale-baseline">stale baseline statement: slow &amp; "odd" stops-accepting-calls is met now; remove it from crash-drill.baseline.json, or run again with --update-baseline to rewrite the file',
        '</failure>',
        '      <system-out></system-out>',
        '    </testcase>',
        '  </testsuite>',
        '',
      ].join('\n'),
    );
    expect(xml).toMatch(/^<testsuites name="mcp-crash-drill" tests="7" failures="2" errors="0" time="[0-9.]+">$/m);
  });

  it('has no such suite when the run judged no expectation', () => {
    const xml = junitXml(runResults([passed()]));
    expect(suiteOf(xml)).toBeNull();
    expect(xml).not.toContain('cleanup expectation');
  });
});
