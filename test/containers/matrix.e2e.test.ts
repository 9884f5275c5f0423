/**
 * The container confusion matrix: each container fake server, drilled through `docker run` on
 * a private engine, with every check's verdict asserted exactly (one truth row per server,
 * point and mode), then the evidence behind the verdicts. Drills run one at a time: two
 * identical drills on one engine at once are ambiguous by design (attribute.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { engineSuite } from './support/with-engine.js';
import { containerScenario, CONTAINER_SCENARIOS } from './support/scenarios.js';
import { verdictTable as table } from '../support/truth-table.js';

const suite = engineSuite('test/containers/matrix.e2e.test.ts');
const TIMING = [
  'timeouts: { close-wait: 500, handshake: 20000, point: 10000 }',
  'expect: { exit-on-eof: { deadline: 1500 }, no-survivors: { grace: 1000 }, stdout-clean: true }',
];

type Row = { verdict: string; 'exit-on-eof': string; 'no-survivors': string; 'stdout-clean': string };
const row = (exit: string, survivors: string): Row => ({
  verdict: exit === 'fail' || survivors === 'fail' ? 'fail' : 'pass',
  'exit-on-eof': exit,
  'no-survivors': survivors,
  'stdout-clean': 'pass',
});

/** The truth table. */
const EXPECTED: Record<string, Row> = {
  'container-exits-on-eof/idle/crash': row('pass', 'pass'),
  'container-exits-on-eof/idle/close': row('pass', 'pass'),
  'container-exits-on-eof/after-response/crash': row('pass', 'pass'),
  'container-exits-on-eof/after-response/close': row('pass', 'pass'),
  // The container runs on after a crash; in close mode the client's SIGTERM reaches it through the CLI's signal proxy.
  'container-ignores-eof/idle/crash': row('fail', 'fail'),
  'container-ignores-eof/idle/close': row('fail', 'pass'),
  'container-ignores-eof/after-response/crash': row('fail', 'fail'),
  'container-ignores-eof/after-response/close': row('fail', 'pass'),
  // PID 1 without --init ignores SIGTERM: even the client's shutdown leaves the container running.
  'container-ignores-eof-no-init/idle/crash': row('fail', 'fail'),
  'container-ignores-eof-no-init/idle/close': row('fail', 'fail'),
  // The server exits on EOF, but its sibling container runs on.
  'container-starts-sibling/after-response/crash': row('pass', 'fail'),
  'container-starts-sibling/after-response/close': row('pass', 'fail'),
};

describe('the container confusion matrix', () => {
  let drills: DrillResult[] = [];

  it('every container server × point × mode gives exactly the expected verdicts, and leaves no container', async (ctx) => {
    if (suite.skip) return ctx.skip();
    const engine = suite.engine();
    const scenarios = CONTAINER_SCENARIOS.map((name) => containerScenario(name, engine, TIMING));
    const { results } = await runPlan(planRun(scenarios), { concurrency: 1, containTermWaitMs: 1000 });
    drills = results.drills;
    const unexplained = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`);
    expect(unexplained).toEqual([]);
    expect(table(drills)).toEqual(EXPECTED);
    expect((await engine.docker(['ps', '-aq'])).trim()).toBe('');
  }, 300_000);

  it('the evidence behind the verdicts names the container, its exit and how it was stopped', (ctx) => {
    if (suite.skip) return ctx.skip();
    const find = (key: string) => drills.find((d) => d.key === key)!;

    const good = find('container-exits-on-eof/idle/crash');
    expect(good.exit).toMatchObject({
      class: 'clean',
      code: 0,
      launcher: { command: expect.stringMatching(/^docker run --label dev\.crash-drill\.run=\S+ -i --rm/) },
    });
    expect(good.containers?.label).toMatchObject({ changed: true, how: 'argv', label: `dev.crash-drill.run=${good.id}` });
    expect(good.containers?.survivors).toEqual([]);

    const left = find('container-ignores-eof/idle/crash');
    expect(left.containers?.survivors).toHaveLength(1);
    expect(left.containers?.survivors[0]).toMatchObject({
      image: 'crash-drill-node:local',
      state: 'running',
      attributedBy: 'label',
      labels: { 'dev.crash-drill.run': left.id },
    });
    expect(left.containers?.survivors[0].cli?.cmdline[0]).toBe('docker');
    expect(left.checks.find((c) => c.id === 'no-survivors')!.summary).toContain(`container ${left.containers!.survivors[0].id.slice(0, 12)}`);
    expect(left.incident.followUp.join('\n')).toContain(left.containers!.survivors[0].id.slice(0, 12));
    expect(left.containers?.containment[0]).toMatchObject({ endedBy: 'stop', forced: false });
    expect(left.exit).toMatchObject({ endedAfter: 'docker stop --time 1 from the harness' });
    expect(left.forcedContainment).toBe(false);

    const closeProxy = find('container-ignores-eof/idle/close');
    expect(closeProxy.checks.find((c) => c.id === 'exit-on-eof')!.summary).toContain("SIGTERM from the client's shutdown, forwarded by the engine CLI");

    const noInit = find('container-ignores-eof-no-init/idle/crash');
    expect(noInit.containers?.containment[0]).toMatchObject({ forced: true, exitCode: 137 });
    expect(noInit.forcedContainment).toBe(true);
    expect(noInit.exit).toMatchObject({ code: 137, class: 'exit-code' });

    const sibling = find('container-starts-sibling/after-response/crash');
    expect(sibling.containers?.survivors).toHaveLength(1);
    expect(sibling.containers?.survivors[0]).toMatchObject({ attributedBy: 'engine-cli', labels: {} });
    expect(sibling.containers?.survivors[0].cli?.cmdline.slice(0, 3)).toEqual(['docker', 'run', '-d']);
    expect(sibling.containers?.containment.map((r) => r.endedBy)).toEqual(['stop']);
  });
});
