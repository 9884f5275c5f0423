/**
 * What a server can make us record is bounded (harness/drill/executor/record-cap.ts), end to end: the real
 * CLI drills dist/fake-servers/floods.js, which floods stdout, stderr or one endless line inside
 * its one tool call. Each bound is shown both ways: a flood past it is cut to a head and a tail
 * with the rest counted (checks still count every line), a stream within it is kept whole.
 * Both client kinds, since the client process sends every line over IPC.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceEvent } from '../../../harness/evidence/types.js';
import type { DrillResult } from '../../../harness/results/types.js';
import { packageRoot } from '../../../harness/util/paths.js';
import type { KillPoint } from '../../../harness/config/index.js';
import { lastLine, runCli, type CliRun } from '../../support/cli.js';
import { scenarioYaml, type ScenarioParts } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';

const FLOODS = join(packageRoot(), 'dist/fake-servers/floods.js');
/** One noise line of floods.ts: `noise <n> <secret> ` + 1000 x + newline. */
const LINES = 400;

function scenario(id: string, flood: string, record: ScenarioParts['record'], point: KillPoint = 'after-response'): string {
  return scenarioYaml({
    id,
    subject: { command: 'node', args: [FLOODS], env: { FAKE_FLOOD: flood, FAKE_FLOOD_SECRET: '{{session.token}}' } },
    target: { call: 'flood' },
    points: [point],
    modes: ['crash'],
    record,
    expect: { 'exit-on-eof': { deadline: 5000 }, 'no-survivors': { grace: 1000 } },
  });
}

interface Run {
  cli: CliRun;
  drills: Map<string, DrillResult>;
  events: Map<string, EvidenceEvent[]>;
  out: string;
}

async function drill(dir: string, client: 'inprocess' | 'process'): Promise<Run> {
  const scenarios = join(dir, `scenarios-${client}`);
  const out = join(dir, `out-${client}`);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(scenarios);
  // About 1 KiB a line: 400 lines, of which 10 are kept; the small flood stays within 500 lines.
  writeFileSync(join(scenarios, 'cut.yaml'), scenario('cut', `lines:${LINES}`, { 'stdout-lines': 10, 'stderr-bytes': 4096 }));
  writeFileSync(join(scenarios, 'whole.yaml'), scenario('whole', 'lines:20', { 'stdout-lines': 500 }));
  writeFileSync(join(scenarios, 'stderr.yaml'), scenario('stderr', `stderr:${200 * 1030}`, { 'stderr-bytes': 4096 }));
  writeFileSync(join(scenarios, 'long-line.yaml'), scenario('long-line', 'line:1000000', { 'line-bytes': 10, 'unterminated-bytes': 100000 }));
  writeFileSync(join(scenarios, 'binary.yaml'), scenario('binary', 'binary', {}));
  const cli = await runCli(['run', scenarios, '--out', out, '--client', client, '--reporter', 'markdown,html']);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { drills: DrillResult[] };
  const drills = new Map(results.drills.map((d) => [d.scenario, d]));
  const events = new Map<string, EvidenceEvent[]>();
  for (const file of readdirSync(join(out, 'evidence'))) {
    const lines = readFileSync(join(out, 'evidence', file), 'utf8')
      .trim()
      .split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as EvidenceEvent & { meta?: { scenario: string } });
    events.set(parsed[0].meta!.scenario, parsed);
  }
  return { cli, drills, events, out };
}

const of = <T extends EvidenceEvent['type']>(events: EvidenceEvent[], type: T) =>
  events.filter((e): e is Extract<EvidenceEvent, { type: T }> => e.type === type);

let dir: string;
const runs: Partial<Record<'inprocess' | 'process', Run>> = {};
beforeAll(async () => {
  dir = tempDir();
  runs.inprocess = await drill(dir, 'inprocess');
  runs.process = await drill(dir, 'process');
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['inprocess', 'process'] as const)('the record of a flooding server (%s client)', (client) => {
  const run = () => runs[client]!;

  it('keeps the first and the last lines of a stdout flood and counts every line it left out', () => {
    const cut = run().drills.get('cut')!;
    const events = run().events.get('cut')!;
    expect(cut.verdict).toBe('fail');
    const clean = cut.checks.find((c) => c.id === 'stdout-clean')!;
    expect(clean.verdict).toBe('fail');
    expect(clean.summary).toMatch(new RegExp(`^${LINES} stdout lines not JSON-RPC \\(10 kept in the record\\), first: "noise 0 \\[redacted\\] x+"$`));
    const noise = of(events, 'stdout-noise').map((e) => Number(e.line.split(' ')[1]));
    expect(noise).toEqual([0, 1, 2, 3, 4, LINES - 5, LINES - 4, LINES - 3, LINES - 2, LINES - 1]);
    const [record] = of(events, 'record-cut');
    expect(record).toMatchObject({ stream: 'stdout', limit: 10, total: LINES, droppedLines: LINES - 10, shortenedLines: 0 });
    expect(record.droppedBytes).toBeGreaterThan((LINES - 10) * 1000);
    expect(cut.incident.recordCut).toEqual([
      expect.stringMatching(
        new RegExp(`^the server's stdout noise: ${LINES} lines \\(.*\\), 10 kept .*; ${LINES - 10} lines \\(.*\\) left out between \\+\\d+ ms and \\+\\d+ ms$`),
      ),
    ]);
    // The other checks judge as ever: the server exited on EOF and left nothing.
    expect(cut.checks.filter((c) => c.id !== 'stdout-clean').map((c) => c.verdict)).toEqual(['pass', 'pass']);
  });

  it('keeps a flood within the bound whole, with no cut', () => {
    const whole = run().drills.get('whole')!;
    const events = run().events.get('whole')!;
    expect(of(events, 'record-cut')).toEqual([]);
    expect(of(events, 'stdout-noise').map((e) => Number(e.line.split(' ')[1]))).toEqual([...Array(20).keys()]);
    expect(whole.checks.find((c) => c.id === 'stdout-clean')!.summary).toMatch(/^20 stdout lines not JSON-RPC, first:/);
    expect(whole.incident.recordCut).toEqual([]);
  });

  it("keeps the head and the tail of a stderr flood, so the server's last words are still read", () => {
    const events = run().events.get('stderr')!;
    const stderr = of(events, 'subject-stderr')
      .map((e) => e.text)
      .join('');
    expect(stderr.length).toBe(4096);
    expect(stderr.startsWith('log 0 [redacted] x')).toBe(true);
    const lastLog = stderr.trimEnd().split('\n').pop()!;
    expect(lastLog).toMatch(/^log \d+ \[redacted\] x{1000}$/);
    expect(Number(lastLog.split(' ')[1])).toBeGreaterThan(190);
    const [record] = of(events, 'record-cut');
    expect(record).toMatchObject({ stream: 'stderr', limit: 4096, droppedLines: 0 });
    expect(record.droppedBytes + 4096).toBe(record.totalBytes);
    expect(run().drills.get('stderr')!.verdict).toBe('pass');
  });

  it('cuts one endless line to its start, and never leaves part of a secret at the cut', () => {
    const events = run().events.get('long-line')!;
    const [line] = of(events, 'stdout-noise');
    // `start <token> y...`: 10 characters keep `start ` and 4 of the token, which are masked.
    expect(line.line).toBe('start [redacted]');
    expect(line.cutBytes).toBeGreaterThan(1_000_000);
    expect(of(events, 'record-cut')[0]).toMatchObject({ stream: 'stdout', total: 1, droppedLines: 0, shortenedLines: 1 });
    expect(
      run()
        .drills.get('long-line')!
        .checks.find((c) => c.id === 'stdout-clean')!.summary,
    ).toMatch(/^1 stdout line not JSON-RPC, first: "start \[redacted\]"$/);
  });

  it('records invalid UTF-8 and NUL bytes safely: the chain verifies and check re-judges the same verdicts', async () => {
    const events = run().events.get('binary')!;
    expect(of(events, 'stdout-noise').map((e) => e.line)).toEqual(['nul\u0000 \ufffd\ufffd\ufffd( \ufffd']);
    const verify = await runCli(['verify', run().out]);
    expect(verify.code).toBe(0);
    const check = await runCli(['check', run().out]);
    const verdicts = [...run().drills.values()].map((d) => `${d.verdict.toUpperCase()} +${d.scenario}`);
    for (const v of verdicts) expect(check.stdout).toMatch(new RegExp(`\\] ${v} `));
    expect(lastLine(check.stdout)).toBe(lastLine(run().cli.stdout));
  });

  it('shows in the reports that the record was cut, and where', () => {
    // summary.md links each failed drill to report.html, which holds its incident record; the HTML report details every drill, the passing stderr flood too.
    const markdown = readFileSync(join(run().out, 'summary.md'), 'utf8');
    expect(markdown).not.toContain('Record cut');
    const html = readFileSync(join(run().out, 'report.html'), 'utf8');
    expect(html).toMatch(/<dt>record cut<\/dt><dd>.*the server&#39;s stdout noise: 400 lines/);
    expect(html).toMatch(/<dt>record cut<\/dt><dd>.*the server&#39;s stderr: .* left out between/);
  });
});
