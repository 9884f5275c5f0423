/**
 * The engine confusion matrix, shared by the run as root with a cgroup (test/drill/matrix.e2e.test.ts)
 * and the run as an ordinary user (test/unprivileged/unprivileged.e2e.test.ts): every fake server ×
 * every kill point of the engine × every kill mode, and the truth table of every check. Both
 * configurations must match the same table: a subreaper finds what a cgroup finds.
 */
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import type { DrillResult } from '../../harness/results/types.js';
import { FAKE_SERVERS, fakeSubject, scenarioYaml, type FakeServer } from './scenarios.js';
import { verdictTable } from './truth-table.js';

export const POINTS: KillPoint[] = ['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response'];
export const MODES: KillMode[] = ['crash', 'close', 'hang'];
/**
 * The exit deadline and the close mode's wait. On this project's 2-core machines, with the
 * suite's matrices side by side, a server that exits at once on EOF was seen to be known gone
 * up to 460 ms after the loss (p99 about 400 ms; alone, p99 about 110 ms), and once past 600 ms:
 * the deadline is twice the worst seen. A drill that passes ends as soon as it is quiet, so the
 * windows cost the matrix no wall time (one run alone: 42.9 s at 600/1000, 38.9 s at 1000/1500).
 */
export const DEADLINE = 1000;
export const GRACE = 1500;
/** slow-exit leaves 1600 ms after EOF: after the deadline, 900 ms before deadline + grace. */
export const SLOW_EXIT_MS = 1600;

export type Row = Record<string, string>;
export type Table = Record<string, Row & { verdict: string }>;

/** One scenario file's text for a server of the matrix; `root` is where the package is. */
export function matrixYaml(server: FakeServer, root?: string): string {
  return scenarioYaml({
    id: server,
    subject: fakeSubject(server, server === 'slow-exit' ? { FAKE_EXIT_DELAY_MS: String(SLOW_EXIT_MS) } : {}, root),
    setup: [{ call: 'subscribe' }],
    target: { call: 'spawn-helper' },
    points: POINTS,
    modes: MODES,
    timeouts: { 'close-wait': DEADLINE, point: 10000, handshake: 20000 },
    expect: { 'exit-on-eof': { deadline: DEADLINE }, 'no-survivors': { grace: GRACE }, 'stdout-clean': true },
  });
}

/** Whether the target call's helper exists at this point: the call reached the server. */
function helperStarted(point: KillPoint): boolean {
  return point === 'in-flight' || point === 'child-spawned' || point === 'after-response';
}

const LEAVES_A_HELPER: readonly FakeServer[] = ['leaks-child', 'daemonizes', 'daemonizes-clean-env', 'shell-daemon'];

/** The truth table: what each check must say for each server, point and mode. */
export function expected(server: FakeServer, point: KillPoint, mode: KillMode): Row {
  const stdout = server === 'stdout-noise' ? 'fail' : 'pass';
  if (mode === 'hang') return { 'stdout-clean': stdout };
  const exitFails = server === 'ignores-eof' || server === 'ignores-sigterm' || server === 'slow-exit';
  let survivors = 'pass';
  if (mode === 'crash' && (server === 'ignores-eof' || server === 'ignores-sigterm')) survivors = 'fail';
  // Their helper or daemon outlives them once the target call has started it.
  if (LEAVES_A_HELPER.includes(server) && helperStarted(point)) survivors = 'fail';
  // In close mode the client's SIGKILL ends ignores-sigterm, which cannot end its helper.
  if (server === 'ignores-sigterm' && mode === 'close' && helperStarted(point)) survivors = 'fail';
  return { 'exit-on-eof': exitFails ? 'fail' : 'pass', 'no-survivors': survivors, 'stdout-clean': stdout };
}

function expectedVerdict(row: Row): string {
  return Object.values(row).includes('fail') ? 'fail' : 'pass';
}

/** What a run gave, keyed like the truth table (test/support/truth-table.ts). */
export const table = (drills: Array<Pick<DrillResult, 'scenario' | 'point' | 'mode' | 'verdict' | 'checks'>>): Table => verdictTable(drills) as Table;

export function expectedTable(): Table {
  const out: Table = {};
  for (const server of FAKE_SERVERS)
    for (const point of POINTS)
      for (const mode of MODES) {
        const row = expected(server, point, mode);
        out[`${server}/${point}/${mode}`] = { verdict: expectedVerdict(row), ...row };
      }
  return out;
}

/** Drills whose verdict is error or unknown, with the reason: none is explained by the table. */
export function unexplained(drills: DrillResult[]): string[] {
  return drills
    .filter((d) => d.verdict === 'error' || d.verdict === 'unknown')
    .map((d) => `${d.scenario}/${d.point}/${d.mode}: ${d.reason}\n${d.exit?.stderrTail ?? ''}`);
}
