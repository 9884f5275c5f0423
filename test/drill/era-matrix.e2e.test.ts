/**
 * The era and cancel confusion matrix: the SDK 2 fake servers (fake-servers/sdk2/) at the engine's
 * points in the three loss modes, and the cancel drill with its three checks, every verdict
 * asserted exactly, with the era each drill spoke and how it was chosen. The engine matrix
 * (test/drill/matrix.e2e.test.ts) holds the SDK 1 and Python servers; these rows are the same
 * shape (harness/checks ids as columns) plus `era`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import type { DrillResult } from '../../harness/results/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { packageRoot } from '../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml, type ScenarioParts, type SubjectInput } from '../support/scenarios.js';
import { tempDir } from '../support/temp-dir.js';
import { verdictTable } from '../support/truth-table.js';

const table = (drills: DrillResult[]) => verdictTable(drills, (d) => ({ era: d.era?.chosenBy ?? 'none' }));

const LOSS_POINTS: KillPoint[] = ['idle', 'in-flight', 'child-spawned', 'after-response'];
const LOSS_MODES: KillMode[] = ['crash', 'close', 'hang'];
const CANCEL_POINTS: KillPoint[] = ['in-flight', 'child-spawned'];
/** As the engine matrix's (test/support/engine-matrix.ts): twice the worst exit seen under the suite's load. */
const DEADLINE = 1000;
const GRACE = 800;
/** The cancel checks' deadline and so the cancel window. */
const CANCEL_DEADLINE = 800;

type Row = Record<string, string>;

function subject(server: string): SubjectInput {
  return { command: 'node', args: [join(packageRoot(), `dist/fake-servers/sdk2/${server}.js`)], name: `sdk2-${server}` };
}

const LOSS_SERVERS = ['dual-era', 'modern-only', 'listen-holds'] as const;
const CANCEL_SERVERS = ['dual-era', 'talks-after-cancel', 'ignores-cancel', 'dies-on-cancel'] as const;

function lossScenario(server: (typeof LOSS_SERVERS)[number], dir: string) {
  // listen-holds keeps its subscriptions/listen stream: the new era's subscription, not a tool.
  const setup = server === 'listen-holds' ? { listen: { 'tools-list-changed': true } } : { call: 'subscribe' };
  return scenarioFrom(
    scenarioYaml({
      id: `sdk2-${server}`,
      subject: subject(server),
      setup: [setup],
      target: { call: 'spawn-helper' },
      points: LOSS_POINTS,
      modes: LOSS_MODES,
      timeouts: { 'close-wait': DEADLINE, point: 10000, handshake: 20000 },
      expect: { 'exit-on-eof': { deadline: DEADLINE }, 'no-survivors': { grace: GRACE } },
    }),
    dir,
    `${server}.yaml`,
  );
}

function cancelScenario(id: string, server: (typeof CANCEL_SERVERS)[number], dir: string, extra: ScenarioParts = {}) {
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: subject(server),
      target: { call: 'work', args: { ms: 3000 } },
      points: CANCEL_POINTS,
      modes: ['cancel'],
      timeouts: { point: 10000, handshake: 20000 },
      expect: {
        'exit-on-eof': { deadline: DEADLINE },
        'no-survivors': { grace: GRACE },
        'stops-after-cancel': { deadline: CANCEL_DEADLINE },
        'alive-after-cancel': { deadline: CANCEL_DEADLINE },
        'silent-after-cancel': { 'outlasts-cancel': true },
      },
      ...extra,
    }),
    dir,
    `${id}.yaml`,
  );
}

function scenarios() {
  const dir = tempDir();
  return [
    ...LOSS_SERVERS.map((s) => lossScenario(s, dir)),
    ...CANCEL_SERVERS.map((s) => cancelScenario(`cancel-${s}`, s, dir)),
    // The old era, pinned: the SDK 1 client cancels a call on the dual-era server's 2025 instance.
    cancelScenario('cancel-dual-era-2025', 'dual-era', dir, { protocol: '2025-11-25' }),
    // "The cancel was ignored, and then the client died": the checks of both halves apply.
    cancelScenario('cancel-ignored-then-crash', 'ignores-cancel', dir, { cancel: { then: 'crash', after: CANCEL_DEADLINE + 100 } }),
  ];
}

function lossRow(server: (typeof LOSS_SERVERS)[number], _point: KillPoint, mode: KillMode): Row {
  if (mode === 'hang') return { era: 'probed', 'stdout-clean': 'pass' };
  // listen-holds never exits on EOF; only the close mode's SIGTERM (or containment) ends it and its helper.
  if (server === 'listen-holds') return { era: 'probed', 'exit-on-eof': 'fail', 'no-survivors': mode === 'crash' ? 'fail' : 'pass', 'stdout-clean': 'pass' };
  return { era: 'probed', 'exit-on-eof': 'pass', 'no-survivors': 'pass', 'stdout-clean': 'pass' };
}

function cancelRow(id: string): Row {
  const pass = { 'stdout-clean': 'pass', 'silent-after-cancel': 'pass', 'stops-after-cancel': 'pass', 'alive-after-cancel': 'pass' };
  switch (id) {
    case 'cancel-talks-after-cancel':
      return { era: 'probed', ...pass, 'silent-after-cancel': 'fail' };
    case 'cancel-ignores-cancel':
      return { era: 'probed', ...pass, 'stops-after-cancel': 'fail' };
    case 'cancel-dies-on-cancel':
      return { era: 'probed', ...pass, 'alive-after-cancel': 'fail' };
    case 'cancel-dual-era-2025':
      return { era: 'pinned', ...pass };
    case 'cancel-ignored-then-crash':
      return { era: 'probed', 'exit-on-eof': 'pass', 'no-survivors': 'pass', ...pass, 'stops-after-cancel': 'fail' };
    default:
      return { era: 'probed', ...pass };
  }
}

function withVerdict(row: Row): Row {
  return { verdict: Object.values(row).includes('fail') ? 'fail' : 'pass', ...row };
}

function expectedTable(): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const server of LOSS_SERVERS)
    for (const point of LOSS_POINTS) for (const mode of LOSS_MODES) out[`sdk2-${server}/${point}/${mode}`] = withVerdict(lossRow(server, point, mode));
  const cancelIds = [...CANCEL_SERVERS.map((s) => `cancel-${s}`), 'cancel-dual-era-2025', 'cancel-ignored-then-crash'];
  for (const id of cancelIds) for (const point of CANCEL_POINTS) out[`${id}/${point}/cancel`] = withVerdict(cancelRow(id));
  return out;
}

describe('the era and cancel matrix', () => {
  let drills: DrillResult[] = [];

  it('every SDK 2 server × point × mode, and every cancel drill, gives exactly the expected verdicts', async () => {
    const { results } = await runPlan(planRun(scenarios()), { client: 'inprocess', containTermWaitMs: 500 });
    drills = results.drills;
    const unexplained = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`);
    expect(unexplained).toEqual([]);
    expect(table(drills)).toEqual(expectedTable());
  }, 600_000);

  it('says which era each drill spoke and why', () => {
    const find = (key: string) => drills.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const modern = find('sdk2-modern-only/idle/crash');
    expect(modern.era).toEqual({ era: '2026-07-28', chosenBy: 'probed', fallbackReason: null });
    expect(modern.handshake).toMatchObject({ serverName: 'sdk2-modern-only', protocolVersion: '2026-07-28' });
    expect(modern.incident.protocol).toBe('2026-07-28, probed (server/discover answered)');
    const pinned = find('cancel-dual-era-2025/in-flight/cancel');
    expect(pinned.era).toEqual({ era: '2025-11-25', chosenBy: 'pinned', fallbackReason: null });
  });

  it('the cancel evidence names what each mutant did after the cancel', () => {
    const find = (key: string) => drills.find((d) => `${d.scenario}/${d.point}/${d.mode}` === key)!;
    const check = (key: string, id: string) => find(key).checks.find((c) => c.id === id)!;
    const good = find('cancel-dual-era/child-spawned/cancel');
    expect(good.incident.cancelledAt).not.toBeNull();
    expect(good.incident.clientUnavailableAt).toBeNull();
    expect(check('cancel-talks-after-cancel/in-flight/cancel', 'silent-after-cancel').summary).toMatch(
      /messages? for the cancelled request "cd-\d+" after the cancel, the first \d+ ms after: a progress notification/,
    );
    expect(check('cancel-ignores-cancel/child-spawned/cancel', 'stops-after-cancel').summary).toMatch(
      /child the call started still running 800 ms after the cancel: pid \d+ \(/,
    );
    expect(check('cancel-dies-on-cancel/in-flight/cancel', 'alive-after-cancel').summary).toMatch(
      /the follow-up after the cancel failed \d+ ms after it: tools\/list: the server closed the connection/,
    );
    expect(check('cancel-dual-era/in-flight/cancel', 'alive-after-cancel').summary).toMatch(
      /the server answered a follow-up tools\/list with 5 tools \d+ ms after the cancel/,
    );
    // The later kill: the client was lost after the cancel, and the loss checks judged that half.
    const then = find('cancel-ignored-then-crash/in-flight/cancel');
    expect(then.incident.clientUnavailableAt!.ms).toBeGreaterThan(then.incident.cancelledAt!.ms);
  });
});
