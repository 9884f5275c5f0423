/**
 * The JUnit reporter on real run results (the CLI on five small scenarios): valid against the
 * Jenkins/Ant junit-10.xsd, counts that match the elements, the failure bodies, the properties,
 * and XML escaping of everything.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, JunitReporter, junitXml, xmlAttr, xmlText } from '../../reports/junit.js';
import type { DrillResult, RunResults } from '../../reports/types.js';
import { drillOf, runReportScenarios, type ReportRun } from './fixtures/cli-run.js';
import { validateJunit } from './fixtures/junit-xsd.js';
import { all, parseXml, type XmlElement } from './fixtures/mini-xml.js';
import { tempDir } from '../support/temp-dir.js';

let run: ReportRun;
let out: string;
beforeAll(async () => {
  run = await runReportScenarios();
  out = tempDir('crash-drill-junit-');
}, 60_000);
afterAll(() => {
  if (run) rmSync(run.dir, { recursive: true, force: true });
  if (out) rmSync(out, { recursive: true, force: true });
});

function writeAndRead(results: RunResults, dir = out): { file: string; text: string; root: XmlElement } {
  create({ outDir: dir }).onRunEnd(results);
  const file = join(dir, 'junit.xml');
  const text = readFileSync(file, 'utf8');
  return { file, text, root: parseXml(text) };
}

const suite = (root: XmlElement, name: string) => all(root, 'testsuite').find((s) => s.attrs.name === name)!;
const testcase = (s: XmlElement, name: string) => s.children.find((c) => c.name === 'testcase' && c.attrs.name === name)!;
const child = (el: XmlElement, name: string) => el.children.find((c) => c.name === name);
const props = (s: XmlElement) => Object.fromEntries(all(s, 'property').map((p) => [p.attrs.name, p.attrs.value]));

describe('junit reporter', () => {
  it('writes <out>/junit.xml that junit-10.xsd accepts, and leaves no temp file', async () => {
    const { file, text } = writeAndRead(run.results);
    expect(readdirSync(out)).toEqual(['junit.xml']);
    const v = await validateJunit(file);
    expect(v.output).toContain('junit.xml validates');
    expect(v.ok).toBe(true);
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(text).not.toMatch(/\u001b/);
  });

  it('the schema check has teeth: the same file with an attribute the XSD lacks is rejected', async () => {
    const { text } = writeAndRead(run.results);
    const bad = join(out, 'bad.xml');
    writeFileSync(bad, text.replace('<testsuites ', '<testsuites skipped="1" '));
    try {
      const v = await validateJunit(bad);
      expect(v.ok).toBe(false);
      expect(v.output).toMatch(/attribute 'skipped' is not allowed/);
    } finally {
      rmSync(bad);
    }
  });

  it('has one suite per scenario, one testcase per drill and check, and counts that match the elements', () => {
    const { root } = writeAndRead(run.results);
    const suites = all(root, 'testsuite');
    expect(suites.map((s) => s.attrs.name).sort()).toEqual(['key-holder', 'missing', 'no-child', 'stays-up', 'wb']);
    const totals = { tests: 0, failures: 0, errors: 0 };
    for (const s of suites) {
      const cases = s.children.filter((c) => c.name === 'testcase');
      const n = (kind: string) => cases.filter((c) => child(c, kind)).length;
      expect(Number(s.attrs.tests)).toBe(cases.length);
      expect(Number(s.attrs.failures)).toBe(n('failure'));
      expect(Number(s.attrs.errors)).toBe(n('error'));
      expect(Number(s.attrs.skipped)).toBe(n('skipped'));
      expect(cases.every((c) => c.attrs.classname === s.attrs.name)).toBe(true);
      const time = cases.reduce((sum, c) => sum + Number(c.attrs.time), 0);
      expect(Number(s.attrs.time)).toBeCloseTo(time, 2);
      totals.tests += cases.length;
      totals.failures += n('failure');
      totals.errors += n('error');
    }
    expect(root.attrs).toMatchObject({
      name: 'mcp-crash-drill',
      tests: String(totals.tests),
      failures: String(totals.failures),
      errors: String(totals.errors),
    });

    // Against the results themselves: one testcase per check, the errored drill as one testcase.
    const expected = { tests: 0, failures: 0, errors: 0 };
    for (const d of run.results.drills) {
      if (d.verdict === 'error') {
        expected.tests++;
        expected.errors++;
      } else {
        expected.tests += d.checks.length;
        expected.failures += d.checks.filter((c) => c.verdict === 'fail').length;
      }
    }
    expect(totals).toEqual(expected);
    expect(suite(root, 'stays-up').attrs).toMatchObject({ tests: '3', failures: '2', errors: '0', skipped: '0' });
    expect(suite(root, 'key-holder').attrs).toMatchObject({ tests: '7', failures: '1', errors: '0', skipped: '0' });
    expect(suite(root, 'missing').attrs).toMatchObject({ tests: '1', failures: '0', errors: '1', skipped: '0' });
    expect(suite(root, 'no-child').attrs).toMatchObject({ tests: '3', failures: '0', errors: '0', skipped: '2' });
    expect(suite(root, 'wb').attrs).toMatchObject({ tests: '3', failures: '0', errors: '0', skipped: '0' });
    expect(Number(root.attrs.time)).toBeCloseTo(run.results.drills.reduce((s, d) => s + d.durationMs, 0) / 1000, 2);
  });

  it('a failed check is a <failure> with its summary, the survivors and the follow-ups; a passed one has none', () => {
    const { root } = writeAndRead(run.results);
    const drill = drillOf(run.results, 'stays-up');
    const s = suite(root, 'stays-up');
    const survivors = testcase(s, 'idle/crash no-survivors');
    const failure = child(survivors, 'failure')!;
    const summary = drill.checks.find((c) => c.id === 'no-survivors')!.summary;
    expect(failure.attrs).toEqual({ message: summary, type: 'no-survivors' });
    // The parent is whoever adopted the orphan (init, or a subreaper above the drill): the record's ppid.
    const { pid, ppid } = drill.survivors[0];
    expect(failure.text).toContain(`survivors:\n  pid ${pid} (ppid ${ppid}, pgid `);
    expect(failure.text).toContain('ignores-eof.js [found by ');
    expect(failure.text).toContain(`follow-up:\n  - listen for the end of stdin yourself, since the SDK 1.x transport does not (typescript-sdk #2002)`);
    expect(failure.text).toContain(`evidence: evidence/${drill.evidence!.file} (head ${drill.evidence!.head}, ${drill.evidence!.records} records)`);
    expect(child(testcase(s, 'idle/crash exit-on-eof'), 'failure')!.text).toContain(`termination: ${drill.incident.termination}`);
    const clean = testcase(s, 'idle/crash stdout-clean');
    expect(['failure', 'error', 'skipped'].map((k) => child(clean, k))).toEqual([undefined, undefined, undefined]);
    expect(child(clean, 'system-out')!.text).toBe(
      `drill ${drill.id}\nevidence: evidence/${drill.evidence!.file} (head ${drill.evidence!.head}, ${drill.evidence!.records} records)\n`,
    );

    const denied = child(testcase(suite(root, 'key-holder'), 'idle/crash denied-after-revocation'), 'failure')!;
    expect(denied.attrs.message).toMatch(/requests succeeded after the session was revoked, first: GET \/whoami \(the long-lived API key, pid \d+\) -> 200/);
    expect(denied.text).toMatch(/requests after revocation:\n {2}#\d+ \+\d+ ms GET \/whoami with api-key -> ok \(pid \d+\)/);
    expect(denied.text).toContain('rotate the long-lived API key');
  });

  it('an errored drill is one <error> testcase; an unknown check is <skipped> with its summary', () => {
    const { root } = writeAndRead(run.results);
    const missing = drillOf(run.results, 'missing');
    const err = child(testcase(suite(root, 'missing'), 'idle/crash'), 'error')!;
    expect(err.attrs).toEqual({ message: missing.reason, type: 'harness-error' });
    expect(err.attrs.message).toMatch(/spawn mcp-server ENOENT/);
    const noChild = drillOf(run.results, 'no-child');
    const skipped = child(testcase(suite(root, 'no-child'), 'child-spawned/crash exit-on-eof'), 'skipped')!;
    expect(skipped.attrs).toEqual({ message: noChild.checks.find((c) => c.id === 'exit-on-eof')!.summary, type: 'unknown' });
    expect(child(testcase(suite(root, 'no-child'), 'child-spawned/crash stdout-clean'), 'skipped')).toBeUndefined();
  });

  it('puts the drill id, kill point, mode and evidence head into the suite properties', () => {
    const { root } = writeAndRead(run.results);
    for (const drill of run.results.drills) {
      const p = props(suite(root, drill.scenario));
      const label = `${drill.point}/${drill.mode}`;
      expect(p).toMatchObject({
        'run-id': run.results.runId,
        subject: drill.subject.name,
        [`${label} drill-id`]: drill.id,
        [`${label} kill-point`]: drill.point,
        [`${label} mode`]: drill.mode,
        [`${label} verdict`]: drill.verdict,
        [`${label} evidence-head`]: drill.evidence!.head,
        [`${label} evidence-file`]: `evidence/${drill.evidence!.file}`,
      });
      expect(drill.evidence!.head).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('escapes <&>"\' and control characters everywhere, and stays valid', async () => {
    const nasty = `a <b> & "c" 'd' ]]> bell\u0007 esc\u001b[31m nul\u0000 lone\ud800 tab\tnl\ncr\r end`;
    const base = drillOf(run.results, 'stays-up');
    const drill: DrillResult = structuredClone(base);
    drill.scenario = `sc <&> "x"`;
    drill.checks = drill.checks.map((c) => (c.id === 'exit-on-eof' ? { ...c, summary: nasty } : c));
    const { file, text, root } = writeAndRead({ ...run.results, drills: [drill] });
    expect((await validateJunit(file)).ok).toBe(true);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
    expect(text).toContain('a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; ]]&gt; bell\\u0007 esc\\u001b[31m nul\\u0000 lone\\ud800 tab&#9;nl&#10;cr&#13; end');
    const visible = `a <b> & "c" 'd' ]]> bell\\u0007 esc\\u001b[31m nul\\u0000 lone\\ud800 tab\tnl\ncr\r end`;
    const failure = child(testcase(suite(root, `sc <&> "x"`), 'idle/crash exit-on-eof'), 'failure')!;
    expect(failure.attrs.message).toBe(visible);
    expect(failure.text.startsWith(`${visible}\n`)).toBe(true);
    expect(testcase(suite(root, `sc <&> "x"`), 'idle/crash exit-on-eof').attrs.classname).toBe(`sc <&> "x"`);
  });

  it('xmlText and xmlAttr leave plain text alone and keep surrogate pairs', () => {
    expect(xmlText('plain text 123 ✅ 😀')).toBe('plain text 123 ✅ 😀');
    expect(xmlAttr('x\ty')).toBe('x&#9;y');
    expect(xmlText('x\ty\nz')).toBe('x\ty\nz');
  });

  it('names repeated drills of one scenario by attempt, so no two testcases share a name', () => {
    const base = drillOf(run.results, 'wb');
    const again: DrillResult = { ...structuredClone(base), id: `${base.id}-again` };
    const xml = parseXml(junitXml({ ...run.results, drills: [base, again] }));
    const names = all(xml, 'testcase').map((c) => c.attrs.name);
    expect(names).toEqual([
      'idle/crash (attempt 1) exit-on-eof',
      'idle/crash (attempt 1) no-survivors',
      'idle/crash (attempt 1) stdout-clean',
      'idle/crash (attempt 2) exit-on-eof',
      'idle/crash (attempt 2) no-survivors',
      'idle/crash (attempt 2) stdout-clean',
    ]);
    expect(props(suite(xml, 'wb'))['idle/crash (attempt 2) drill-id']).toBe(`${base.id}-again`);
  });

  it('replaces an earlier junit.xml by rename', () => {
    const dir = tempDir('crash-drill-junit-');
    try {
      writeFileSync(join(dir, 'junit.xml'), 'old');
      const inode = statSync(join(dir, 'junit.xml')).ino;
      const reporter = new JunitReporter(dir);
      expect(reporter.name).toBe('junit');
      reporter.onRunEnd(run.results);
      expect(statSync(join(dir, 'junit.xml')).ino).not.toBe(inode);
      expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toBe(junitXml(run.results));
      expect(readdirSync(dir)).toEqual(['junit.xml']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the test XML reader itself rejects malformed input', () => {
    expect(() => parseXml('<a><b></a>')).toThrow(/mismatched/);
    expect(() => parseXml('<a x="1" x="2"/>')).toThrow(/duplicate/);
    expect(() => parseXml('<a>&bogus;</a>')).toThrow(/unknown entity/);
    expect(parseXml('<a q="&lt;&#10;&#x41;">t&amp;</a>')).toEqual({ name: 'a', attrs: { q: '<\nA' }, children: [], text: 't&' });
  });
});
