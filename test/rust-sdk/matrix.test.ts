/**
 * The rmcp matrices: the fake servers on rmcp 3.11.0 (fake-servers/rust/), drilled by the real
 * CLI from test/rust-sdk/scenarios/, every drill's verdict, era and check verdicts asserted exactly:
 * - the engine matrix (exit-on-eof, no-survivors, stdout-clean) over every behaviour, where a
 *   call in flight at EOF holds the server for rmcp's 5 s drain (slow-tool, ignores-cancel,
 *   awaits-sampling) and slow-tool-drain shows it exit on its own after it;
 * - the era matrix: rmcp answers server/discover (2026-07-28); awaits-sampling pins 2025-11-25;
 * - the cancel matrix (silent-after-cancel, stops-after-cancel, alive-after-cancel), where rmcp
 *   drops the answer of a cancelled request, unlike every Go SDK.
 * One run at --concurrency 1 and one at the default schedule must give the same table.
 * fake-servers/rust/README.md has the same servers measured with rmcp's own client.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from '../support/cli.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';
import { RMCP_BUILD, rustFakesSuite } from './support/rust-fakes.js';

const built = rustFakesSuite('test/rust-sdk/matrix.test.ts');
const ROOT = packageRoot();
const SCENARIOS = join(ROOT, 'test/rust-sdk/scenarios');
const B = RMCP_BUILD;

type Row = Record<string, string>;

/** protocol auto: rmcp 3.11.0 answers server/discover. */
const ERA = '2026-07-28/probed';

function withVerdict(era: string, checks: Row): Row {
  return { verdict: Object.values(checks).includes('fail') ? 'fail' : 'pass', era, ...checks };
}

const loss = (exit: string, survivors: string): Row => ({ 'exit-on-eof': exit, 'no-survivors': survivors, 'stdout-clean': 'pass' });
const cancel = (silent: string, stops: string): Row => ({
  'stdout-clean': 'pass',
  'silent-after-cancel': silent,
  'stops-after-cancel': stops,
  'alive-after-cancel': 'pass',
});

/** The truth table: every scenario, point and mode in the scenario files. */
function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const mode of ['crash', 'close']) {
    for (const point of ['idle', 'in-flight', 'child-spawned', 'after-response'])
      out[`${B}-well-behaved/${point}/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    // The 5 s drain holds the server past the 1 s deadline although the handler checks its token;
    // after a crash the harness's SIGTERM ends it, after a close the client's, and its sleep child
    // outlives either (kill_on_drop runs only when the runtime drops the task).
    for (const point of ['in-flight', 'child-spawned']) out[`${B}-slow-tool/${point}/${mode}`] = withVerdict(ERA, loss('fail', 'fail'));
    // The drain, then the runtime's wait for the blocking work (30 s): only a signal ends it.
    out[`${B}-ignores-cancel/in-flight/${mode}`] = withVerdict(ERA, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    out[`${B}-leaks-child/after-response/${mode}`] = withVerdict(ERA, loss('pass', 'fail'));
    out[`${B}-task-keeps-alive/idle/${mode}`] = withVerdict(ERA, loss('fail', mode === 'crash' ? 'fail' : 'pass'));
    // A failed write after EOF is an error value in Rust (no SIGPIPE): exit 0, or 101 from println!'s panic.
    out[`${B}-writes-after-eof/idle/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
    out[`${B}-prints-after-eof/idle/${mode}`] = withVerdict(ERA, loss('pass', 'pass'));
  }
  // Close only (the scenario says why): the drain outlasts close-wait, the client's SIGTERM ends it.
  out[`${B}-awaits-sampling/in-flight/close`] = withVerdict('2025-11-25/pinned', loss('fail', 'pass'));
  out[`${B}-slow-tool-drain/in-flight/crash`] = withVerdict(ERA, loss('pass', 'pass'));
  for (const point of ['in-flight', 'child-spawned']) out[`${B}-cancel-slow-tool/${point}/cancel`] = withVerdict(ERA, cancel('pass', 'pass'));
  // Its answer comes 400 ms after the cancel, and rmcp drops it (#957): silent-after-cancel passes.
  out[`${B}-cancel-ignores-cancel/in-flight/cancel`] = withVerdict(ERA, cancel('pass', 'pass'));
  out[`${B}-cancel-leaks-child/child-spawned/cancel`] = withVerdict(ERA, cancel('pass', 'fail'));
  return out;
}

function table(drills: DrillResult[]): Record<string, Row> {
  return Object.fromEntries(
    drills.map((d) => [
      `${d.scenario}/${d.point}/${d.mode}`,
      { verdict: d.verdict, era: `${d.era?.era}/${d.era?.chosenBy}`, ...Object.fromEntries(d.checks.map((c) => [c.id, c.verdict])) },
    ]),
  );
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The scenario files in a temp folder, the binaries' paths absolute. */
function scenarioCopy(): string {
  const dir = tempDir('crash-drill-rust-');
  dirs.push(dir);
  mkdirSync(join(dir, 'scenarios'));
  for (const name of readdirSync(SCENARIOS))
    writeFileSync(join(dir, 'scenarios', name), readFileSync(join(SCENARIOS, name), 'utf8').replaceAll('../../../', `${ROOT}/`));
  return dir;
}

async function runMatrix(args: string[]): Promise<DrillResult[]> {
  const dir = scenarioCopy();
  const out = join(dir, 'out');
  const run = await runCli(['run', join(dir, 'scenarios'), '--out', out, ...args]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  const drills: DrillResult[] = results.drills;
  const unexplained = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`);
  expect(unexplained).toEqual([]);
  expect(run.code, run.stderr).toBe(1);
  const expected = expectedTable();
  const failed = Object.values(expected).filter((r) => r.verdict === 'fail').length;
  expect(lastLine(run.stdout)).toBe(`${Object.keys(expected).length - failed} passed, ${failed} failed, 0 unknown`);
  expect(markedProcesses(results.runId)).toEqual([]);
  return drills;
}

describe.skipIf(!built)('the rmcp matrices', () => {
  let one: DrillResult[] = [];

  it('one drill at a time: every behaviour × point × mode gives exactly the expected verdicts and eras', async () => {
    one = await runMatrix(['--concurrency', '1']);
    expect(table(one)).toEqual(expectedTable());
  }, 600_000);

  it('with the default schedule: the same table', async () => {
    expect(table(await runMatrix([]))).toEqual(expectedTable());
  }, 600_000);

  it('the evidence names what each server did', () => {
    const find = (key: string) => one.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const check = (key: string, id: string) => find(key).checks.find((c) => c.id === id)!;
    expect(find(`${B}-well-behaved/idle/crash`).exit).toMatchObject({ class: 'clean', code: 0 });
    expect(find(`${B}-well-behaved/idle/crash`).handshake).toMatchObject({ serverName: 'rmcp-well-behaved', protocolVersion: '2026-07-28' });

    // No SIGPIPE in Rust: after a crash the write after EOF fails with EPIPE, the error is a value.
    const wrote = find(`${B}-writes-after-eof/idle/crash`);
    expect(wrote.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(wrote.exit?.stderrTail).toMatch(/last write written=Err\(Os \{ code: 32, kind: BrokenPipe/);
    // println! turns the same error into a panic: exit 101, classed a crash, still its own end.
    const printed = find(`${B}-prints-after-eof/idle/crash`);
    expect(printed.exit).toMatchObject({ class: 'crash', code: 101, signal: null });
    expect(printed.exit?.crash).toMatch(/^thread 'main' \(\d+\) panicked at .*library\/std\/src\/io\/stdio\.rs/);
    expect(printed.exit?.stderrTail).toContain('failed printing to stdout: Broken pipe (os error 32)');
    for (const key of [`${B}-writes-after-eof/idle/close`, `${B}-prints-after-eof/idle/close`])
      expect(find(key).exit).toMatchObject({ class: 'clean', code: 0 });

    // The drain: exit 0 on its own once rmcp gave up waiting (5 s) and the token fired.
    const drained = find(`${B}-slow-tool-drain/in-flight/crash`);
    expect(drained.exit).toMatchObject({ class: 'clean', code: 0 });
    expect(drained.exit?.afterLossMs).toBeGreaterThanOrEqual(5000);
    expect(drained.exit?.afterLossMs).toBeLessThan(7000);
    expect(drained.exit?.stderrTail).toContain('timed out draining in-flight responses');
    const held = find(`${B}-slow-tool/child-spawned/crash`);
    expect(held.exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    expect(held.survivors.map((s) => s.cmdline.join(' ')).sort()).toEqual([expect.stringMatching(/rmcp-3\.11\.0\/slow-tool$/), 'sleep 30.000']);

    expect(find(`${B}-task-keeps-alive/idle/crash`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'harness' });
    expect(find(`${B}-awaits-sampling/in-flight/close`).exit).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'client' });
    expect(find(`${B}-leaks-child/after-response/crash`).survivors.map((s) => s.cmdline)).toEqual([['sleep', '300']]);

    // The cancelled call's answer never goes out (rmcp drops it), unlike every Go SDK's.
    expect(check(`${B}-cancel-ignores-cancel/in-flight/cancel`, 'silent-after-cancel').summary).toMatch(/^nothing more for the cancelled request/);
    expect(check(`${B}-cancel-leaks-child/child-spawned/cancel`, 'stops-after-cancel').summary).toMatch(
      /still running 800 ms after the cancel: pid \d+ \(sleep 300\)/,
    );
  });
});
