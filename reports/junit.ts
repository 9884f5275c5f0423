/**
 * `<out>/junit.xml` in the Jenkins xUnit plugin's junit-10.xsd (test/reports/fixtures/junit.xsd):
 * a suite per scenario, a testcase per drill and check. Per-drill facts go into the suite's
 * <properties>, as junit-10.xsd allows none inside a <testcase>.
 */
import { modeLabel, staleAdvice } from '../harness/results/constants.js';
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { writeChunksAtomic } from './write-atomic.js';
import { EXPECTATION_SUITE, expectationCases } from './junit-expectation.js';
import { join } from 'node:path';
import type { ReporterOptions } from './types.js';
import type { DrillList, DrillResult, Reporter, RunReport } from './types.js';
import { requirementLine } from '../harness/results/constants.js';

type Check = DrillResult['checks'][number];

interface Outcome {
  kind: 'failure' | 'error' | 'skipped';
  message: string;
  type: string;
  body: string;
}

interface TestCase {
  name: string;
  classname: string;
  /** Seconds; a drill's duration goes on its first testcase, so the sums are drill time. */
  time: number;
  outcome: Outcome | null;
  systemOut: string;
}

export class JunitReporter implements Reporter {
  name = 'junit';
  constructor(private readonly outDir: string) {}

  onRunEnd(results: RunReport): void {
    mkdirSync(this.outDir, { recursive: true });
    writeJunit(join(this.outDir, 'junit.xml'), results);
  }
}

export function create(options: ReporterOptions): JunitReporter {
  return new JunitReporter(options.outDir);
}

/** The whole file as one string. */
export function junitXml(results: RunReport): string {
  const suites = [...suiteTexts(results)];
  return `${rootOpen(results, totalOf(suites))}${suites.map((s) => s.xml).join('')}</testsuites>\n`;
}

interface Suite {
  name: string;
  cases: TestCase[];
  properties: string[];
}

interface SuiteText {
  xml: string;
  tests: number;
  failures: number;
  errors: number;
  time: number;
}

/** Each suite's text, a suite at a time: its drills are read when it is built and not held after. */
function* suiteTexts(results: RunReport): Generator<SuiteText> {
  const { drills } = results;
  const labels = drillLabels(drills);
  const requirements = new Map((results.requirements?.checks ?? []).map((c) => [c.id, requirementLine(c.requirement)]));
  const byScenario = new Map<string, number[]>();
  for (const [i, { scenario }] of labels.entries()) {
    const positions = byScenario.get(scenario) ?? [];
    positions.push(i);
    byScenario.set(scenario, positions);
  }
  const suites: (() => Suite)[] = [...byScenario].map(([scenario, positions]) => () => {
    const cases: TestCase[] = [];
    const properties: string[] = [];
    const checkIds = new Set<string>();
    for (const i of positions) {
      const drill = drills.at(i)!;
      if (properties.length === 0) properties.push(property('subject', drill.subject.name));
      cases.push(...testCases(drill, labels[i].label));
      properties.push(...drillProperties(drill, labels[i].label));
      for (const c of drill.checks) checkIds.add(c.id);
    }
    // Each check's requirement once a suite (the spec, the conformance suite, or practice).
    for (const id of checkIds) {
      const requirement = requirements.get(id);
      if (requirement) properties.push(property(`requirement ${id}`, requirement));
    }
    return { name: scenario, cases, properties };
  });
  // Each server's cleanup expectation (reports/junit-expectation.ts).
  const expectation = expectationCases(results);
  if (expectation)
    suites.push(() => ({
      name: EXPECTATION_SUITE,
      cases: expectation.cases.map((c) => ({ ...c, classname: EXPECTATION_SUITE, time: 0 })),
      properties: expectation.properties.map(([name, value]) => property(name, value)),
    }));
  const stale = staleCases(results);
  if (stale.length > 0) suites.push(() => ({ name: 'crash-drill baseline', cases: stale, properties: [property('baseline', results.baseline?.file ?? '')] }));
  for (const [id, build] of suites.entries()) {
    const { name, cases, properties } = build();
    const counts = { tests: cases.length, failures: countOf(cases, 'failure'), errors: countOf(cases, 'error'), skipped: countOf(cases, 'skipped') };
    const time = timeOf(cases);
    const xml =
      `  <testsuite${attrs({ name, ...counts, time: seconds(time), timestamp: results.startedAt, id })}>\n` +
      `    <properties>\n${[property('run-id', results.runId), ...properties].map((p) => `      ${p}\n`).join('')}    </properties>\n` +
      cases.map(testCaseXml).join('') +
      `  </testsuite>\n`;
    yield { xml, ...counts, time };
  }
}

function totalOf(suites: Iterable<Omit<SuiteText, 'xml'>>) {
  const total = { tests: 0, failures: 0, errors: 0, time: 0 };
  for (const s of suites) {
    total.tests += s.tests;
    total.failures += s.failures;
    total.errors += s.errors;
    total.time += s.time;
  }
  return total;
}

/** The declaration and the root element: its totals are the suites' (junit-10.xsd gives <testsuites> no `skipped` attribute: those live on each suite). */
function rootOpen(results: RunReport, total: { tests: number; failures: number; errors: number; time: number }): string {
  const root = attrs({ name: results.harness.name, tests: total.tests, failures: total.failures, errors: total.errors, time: seconds(total.time) });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${root}>\n`;
}

/** One pass: the root's totals come first, so the suites go to a side file and are copied after the root once counted. */
function writeJunit(file: string, results: RunReport): void {
  const suitesFile = `${file}.${process.pid}.suites`;
  try {
    const sizes: Omit<SuiteText, 'xml'>[] = [];
    const fd = openSync(suitesFile, 'w');
    try {
      for (const { xml, ...counts } of suiteTexts(results)) {
        writeSync(fd, xml);
        sizes.push(counts);
      }
    } finally {
      closeSync(fd);
    }
    const root = rootOpen(results, totalOf(sizes));
    writeChunksAtomic(
      file,
      (function* () {
        yield root;
        yield* fileChunks(suitesFile); // one buffer, reused: each chunk is written before the next is read
        yield '</testsuites>\n';
      })(),
    );
  } finally {
    rmSync(suitesFile, { force: true });
  }
}

/** A file's bytes, a megabyte at a time. */
function* fileChunks(file: string): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) yield buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const countOf = (cases: TestCase[], kind: Outcome['kind']) => cases.filter((c) => c.outcome?.kind === kind).length;
const timeOf = (cases: TestCase[]) => cases.reduce((sum, c) => sum + c.time, 0);

/** A baseline entry that now passes fails the run: one failed testcase each, in a suite of its own. */
function staleCases(results: RunReport): TestCase[] {
  const b = results.baseline;
  if (!b) return [];
  return b.stale.map((e) => {
    const message = `stale baseline entry: ${e.drill} ${e.check ?? '(the drill)'} was ${e.verdict} and now passes; ${staleAdvice(1, b.file)}`;
    return {
      name: `${e.drill} ${e.check ?? '(drill)'}`,
      classname: 'crash-drill baseline',
      time: 0,
      outcome: { kind: 'failure', message, type: 'stale-baseline', body: `${message}\n` },
      systemOut: '',
    };
  });
}

/** `<point>/<mode>`, with ` (attempt n)` when a scenario ran the same drill more than once (--repeat); by position in the list. */
function drillLabels(drills: DrillList): { scenario: string; label: string }[] {
  const keys: { scenario: string; key: string; short: string }[] = [];
  const totals = new Map<string, number>();
  for (const d of drills) {
    const key = `${d.scenario}\0${d.point}/${modeLabel(d)}`;
    keys.push({ scenario: d.scenario, key, short: `${d.point}/${modeLabel(d)}` });
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  return keys.map(({ scenario, key, short }) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return { scenario, label: totals.get(key)! > 1 ? `${short} (attempt ${n})` : short };
  });
}

function testCases(drill: DrillResult, label: string): TestCase[] {
  const systemOut = `drill ${drill.id}\n${evidenceLine(drill)}\n`;
  const time = drill.durationMs / 1000;
  const base = { classname: drill.scenario, systemOut };
  if (drill.verdict === 'error') {
    return [{ ...base, name: label, time, outcome: { kind: 'error', message: drill.reason, type: 'harness-error', body: `${drill.reason}\n${systemOut}` } }];
  }
  if (drill.checks.length === 0) {
    return [{ ...base, name: label, time, outcome: { kind: 'skipped', message: drill.reason, type: 'unknown', body: '' } }];
  }
  return drill.checks.map((check, i) => ({ ...base, name: `${label} ${check.id}`, time: i === 0 ? time : 0, outcome: outcome(drill, check) }));
}

function outcome(drill: DrillResult, check: Check): Outcome | null {
  if (check.verdict === 'pass') return null;
  // A failure the baseline lists: skipped, with the baseline's reason, so CI shows it apart from new ones.
  const known = check.verdict === 'fail' ? drill.known?.find((k) => k.check === check.id) : undefined;
  if (known)
    return {
      kind: 'skipped',
      message: `known failure (baseline): ${known.reason || 'no reason written in the baseline'}`,
      type: 'known',
      body: `${check.summary}\n`,
    };
  if (check.verdict === 'unknown') return { kind: 'skipped', message: check.summary, type: 'unknown', body: '' };
  // How the server ended is a fact of the drill, not of one check: every failure carries it.
  const lines = [
    check.summary,
    ...details(drill, check),
    `termination: ${drill.incident.termination}`,
    `protocol: ${drill.incident.protocol ?? 'not recorded'}`,
    ...(drill.incident.recordCut ?? []).map((cut) => `record cut: ${cut}`),
    ...(drill.incident.activity ? [`the server's own record: ${drill.incident.activity.line}`] : []),
    // This check's diagnosis: the cause as observed, what showed it, the SDK's known behaviour.
    ...(drill.incident.diagnosis ?? [])
      .filter((g) => g.check === check.id)
      .flatMap((g) => [`diagnosis: ${g.cause}`, ...g.observed.map((o) => `  - ${o}`), ...(g.sdk ? [`  - known: ${g.sdk}`] : [])]),
  ];
  if (drill.incident.followUp.length > 0) lines.push('follow-up:', ...drill.incident.followUp.map((f) => `  - ${f}`));
  lines.push(`drill ${drill.id}`, evidenceLine(drill));
  return { kind: 'failure', message: check.summary, type: check.id, body: lines.join('\n') + '\n' };
}

/** What the failed check found, as the check itself set it out in the incident record's findings. */
function details(drill: DrillResult, check: Check): string[] {
  return (drill.incident.findings ?? []).filter((f) => f.check === check.id).flatMap((f) => [`${f.label}:`, ...f.items.map((item) => `  ${item}`)]);
}

function drillProperties(drill: DrillResult, label: string): string[] {
  return [
    property(`${label} drill-id`, drill.id),
    property(`${label} kill-point`, drill.point),
    property(`${label} mode`, drill.mode),
    property(`${label} verdict`, drill.verdict),
    property(`${label} evidence-head`, drill.evidence?.head ?? 'none'),
    property(`${label} evidence-file`, drill.evidence ? evidencePath(drill.evidence.file) : 'none'),
  ];
}

function evidenceLine(drill: DrillResult): string {
  if (!drill.evidence) return 'evidence: none written';
  return `evidence: ${evidencePath(drill.evidence.file)} (head ${drill.evidence.head}, ${drill.evidence.records} records)`;
}

/** results.json names the log by its file name inside `<out>/evidence/`. */
export function evidencePath(file: string): string {
  return file.includes('/') ? file : `evidence/${file}`;
}

function testCaseXml(c: TestCase): string {
  const open = `    <testcase${attrs({ name: c.name, classname: c.classname, time: seconds(c.time) })}>\n`;
  const o = c.outcome;
  const inner = o
    ? o.body === ''
      ? `      <${o.kind}${attrs({ message: o.message, type: o.type })}/>\n`
      : `      <${o.kind}${attrs({ message: o.message, type: o.type })}>${xmlText(o.body)}</${o.kind}>\n`
    : '';
  return `${open}${inner}      <system-out>${xmlText(c.systemOut)}</system-out>\n    </testcase>\n`;
}

function property(name: string, value: string): string {
  return `<property${attrs({ name, value })}/>`;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');
}

/** Surefire's time: seconds with a dot (junit-10.xsd SUREFIRE_TIME allows no exponent, no sign). */
function seconds(s: number): string {
  return Math.max(0, s).toFixed(3);
}

/** What XML 1.0 cannot carry even as references (§2.2 Char), plus DEL and C1 controls a terminal may act on: written as visible `\uXXXX`. */
const UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element text: `&`, `<`, `>` escaped (`>` too, so `]]>` can never appear), CR kept as a reference. */
export function xmlText(s: string): string {
  return visible(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Attribute values: also quotes, and tab/LF/CR as references, which attribute normalisation would turn into spaces. */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}
