/**
 * The confusion matrix: every fake server × every kill point of the engine × every kill mode,
 * with the verdict of every check asserted exactly. well-behaved passes everything everywhere;
 * each mutant fails exactly the checks its one behaviour breaks, at the points where it can
 * show. The matrix runs twice and both runs must match the table (and so each other).
 */
import { describe, expect, it } from 'vitest';
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import { runScenarios } from '../../harness/run/run-drills.js';
import type { DrillResult } from '../../harness/results/types.js';
import { FAKE_SERVERS, scenarioFrom, subjectYaml, tempDir, type FakeServer } from '../support/scenarios.js';

const POINTS: KillPoint[] = ['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response'];
const MODES: KillMode[] = ['crash', 'close', 'hang'];
const DEADLINE = 600;
const GRACE = 1000;
/** slow-exit leaves 1000 ms after EOF: after the deadline, well before deadline + grace. */
const SLOW_EXIT_MS = 1000;

type Row = Record<string, string>;

function scenarios() {
  const dir = tempDir();
  return FAKE_SERVERS.map((server) =>
    scenarioFrom(
      [
        `id: ${server}`,
        subjectYaml(server, server === 'slow-exit' ? { FAKE_EXIT_DELAY_MS: String(SLOW_EXIT_MS) } : {}),
        'setup:',
        '  - call: subscribe',
        'target:',
        '  call: spawn-helper',
        `points: [${POINTS.join(', ')}]`,
        `modes: [${MODES.join(', ')}]`,
        `timeouts: { close-wait: ${DEADLINE}, point: 10000, handshake: 20000 }`,
        `expect: { exit-on-eof: { deadline: ${DEADLINE} }, no-survivors: { grace: ${GRACE} }, stdout-clean: true }`,
      ].join('\n'),
      dir,
      `${server}.yaml`,
    ),
  );
}

/** Whether the target call's helper exists at this point: the call reached the server. */
function helperStarted(point: KillPoint): boolean {
  return point === 'in-flight' || point === 'child-spawned' || point === 'after-response';
}

/** The truth table: what each check must say for each server, point and mode. */
function expected(server: FakeServer, point: KillPoint, mode: KillMode): Row {
  const stdout = server === 'stdout-noise' ? 'fail' : 'pass';
  if (mode === 'hang') return { 'stdout-clean': stdout };
  const exitFails = server === 'ignores-eof' || server === 'ignores-sigterm' || server === 'slow-exit';
  let survivors = 'pass';
  if (mode === 'crash' && (server === 'ignores-eof' || server === 'ignores-sigterm')) survivors = 'fail';
  // Their helper or daemon outlives them once the target call has started it.
  if ((server === 'leaks-child' || server === 'daemonizes') && helperStarted(point)) survivors = 'fail';
  // In close mode the client's SIGKILL ends ignores-sigterm, which cannot end its helper.
  if (server === 'ignores-sigterm' && mode === 'close' && helperStarted(point)) survivors = 'fail';
  return { 'exit-on-eof': exitFails ? 'fail' : 'pass', 'no-survivors': survivors, 'stdout-clean': stdout };
}

function expectedVerdict(row: Row): string {
  return Object.values(row).includes('fail') ? 'fail' : 'pass';
}

function table(drills: DrillResult[]): Record<string, Row & { verdict: string }> {
  return Object.fromEntries(
    drills.map((d) => [`${d.scenario}/${d.point}/${d.mode}`, { verdict: d.verdict, ...Object.fromEntries(d.checks.map((c) => [c.id, c.verdict])) }]),
  );
}

function expectedTable(): Record<string, Row & { verdict: string }> {
  const out: Record<string, Row & { verdict: string }> = {};
  for (const server of FAKE_SERVERS)
    for (const point of POINTS)
      for (const mode of MODES) {
        const row = expected(server, point, mode);
        out[`${server}/${point}/${mode}`] = { verdict: expectedVerdict(row), ...row };
      }
  return out;
}

describe('the confusion matrix', () => {
  const runs: DrillResult[][] = [];

  for (const attempt of [1, 2]) {
    it(`run ${attempt}: every server × point × mode gives exactly the expected verdicts`, async () => {
      const { results } = await runScenarios(scenarios(), { concurrency: 3, containTermWaitMs: 500 });
      runs.push(results.drills);
      expect(results.drills).toHaveLength(FAKE_SERVERS.length * POINTS.length * MODES.length);
      const unexplained = results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.scenario}/${d.point}/${d.mode}: ${d.reason}\n${d.exit?.stderrTail ?? ''}`);
      expect(unexplained).toEqual([]);
      expect(table(results.drills)).toEqual(expectedTable());
    }, 600_000);
  }

  it('the evidence behind the verdicts says what each mutant did', () => {
    const drills = runs.flat();
    expect(drills.length).toBeGreaterThan(0);
    const find = (key: string) => drills.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;

    // well-behaved exits cleanly on EOF, on its own.
    const wb = find('well-behaved/after-response/crash');
    expect(wb.exit).toMatchObject({ class: 'clean', code: 0, signal: null });
    expect(wb.exit!.afterLossMs!).toBeLessThanOrEqual(DEADLINE);
    expect(wb.containment.every((r) => r.endedBy === 'already-gone' || r.endedBy === 'SIGTERM')).toBe(true);

    // ignores-eof under close: the client's SIGTERM ended it (it handles SIGTERM and exits 0), and the record says who sent it.
    const ieClose = find('ignores-eof/idle/close');
    expect(ieClose.exit).toMatchObject({ class: 'clean', code: 0, endedAfter: "SIGTERM from the client's shutdown" });
    expect(ieClose.checks.find((c) => c.id === 'exit-on-eof')!.summary).toContain("SIGTERM from the client's shutdown");

    // ignores-sigterm under crash: only containment's SIGKILL ended it.
    const isCrash = find('ignores-sigterm/idle/crash');
    expect(isCrash.forcedContainment).toBe(true);
    expect(isCrash.exit).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'harness' });
    expect(isCrash.survivors.map((s) => s.cmdline.join(' '))).toEqual([expect.stringContaining('ignores-sigterm.js')]);

    // slow-exit: it did exit on its own, just too late.
    const slow = find('slow-exit/idle/crash');
    expect(slow.exit).toMatchObject({ class: 'clean', code: 0 });
    expect(slow.exit!.afterLossMs!).toBeGreaterThan(DEADLINE);
    expect(slow.survivors).toEqual([]);

    // leaks-child: the survivor is its helper, re-parented away from the dead server.
    const leak = find('leaks-child/after-response/crash');
    expect(leak.survivors).toHaveLength(1);
    expect(leak.survivors[0].cmdline.join(' ')).toContain('helper');
    expect(leak.survivors[0].ppid).not.toBe(leak.exit!.pid);

    // daemonizes: the daemon sits in its own session, yet the drill still found it.
    const daemon = find('daemonizes/after-response/crash');
    expect(daemon.survivors).toHaveLength(1);
    expect(daemon.survivors[0].sid).toBe(daemon.survivors[0].pid);
    expect(daemon.survivors[0].foundBy.length).toBeGreaterThan(0);

    // stdout-noise: the banner is quoted in the failure.
    const noise = find('stdout-noise/idle/hang');
    expect(noise.checks.map((c) => c.id)).toEqual(['stdout-clean']);
    expect(noise.checks[0].summary).toMatch(/not JSON-RPC, first: ".+"/);

    // The child-spawned point names the child it saw.
    const spawned = find('well-behaved/child-spawned/crash');
    expect(spawned.verdict).toBe('pass');
  });
});
