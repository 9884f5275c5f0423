/**
 * The diagnosis of container servers, both ways, on a private engine: when the server runs in a
 * container the drill's process is the engine CLI, so the diagnosis names the container (its
 * exit, whether only a kill ended it, containers it started), never the CLI's threads.
 */
import { describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { containerScenario } from './support/scenarios.js';
import { engineSuite } from './support/with-engine.js';

const suite = engineSuite('test/containers/diagnosis.e2e.test.ts');
const TIMING = [
  'timeouts: { close-wait: 500, handshake: 20000, point: 10000 }',
  'expect: { exit-on-eof: { deadline: 1500 }, no-survivors: { grace: 1000 }, stdout-clean: true }',
];

const fixes = (d: DrillResult | undefined) => (d?.incident.diagnosis ?? []).map((g) => `${g.check}: ${g.fix}`);

describe('diagnosis of container servers', () => {
  it('names the container that ignored EOF and SIGTERM, the sibling container left running, and nothing for one that exits', async (ctx) => {
    if (suite.skip) return ctx.skip();
    const engine = suite.engine();
    const scenarios = (['exits-on-eof', 'ignores-eof-no-init', 'starts-sibling'] as const).map((name) => containerScenario(name, engine, TIMING));
    const { results } = await runPlan(planRun(scenarios, { modes: ['crash'] }), { concurrency: 1, containTermWaitMs: 1000 });
    const d = new Map(results.drills.map((r) => [r.key, r]));

    const noInit = d.get('container-ignores-eof-no-init/idle/crash');
    const mainFix =
      "make the container's main process exit on stdin EOF, and run it with --init (a PID 1 without a SIGTERM handler ignores SIGTERM, so docker stop waits and kills)";
    expect(fixes(noInit)).toEqual([`exit-on-eof: ${mainFix}`, "no-survivors: make the container's main process exit on stdin EOF, and run it with --init"]);
    expect(noInit?.incident.diagnosis?.[0].cause).toBe(
      "the container's main process did not exit when its stdin closed (docker run -i passes the client's EOF on), and it outlived SIGTERM: only a kill ended it",
    );
    expect(noInit?.incident.diagnosis?.[0].observed[0]).toMatch(/^the server is container [0-9a-f]{12} \(\S+, .*\), run by the engine CLI pid \d+$/);

    const sibling = d.get('container-starts-sibling/after-response/crash');
    expect(fixes(sibling)).toEqual([
      'no-survivors: stop the containers the server starts (docker stop <id>, then docker rm) when stdin ends, and start them with --rm',
    ]);

    // The other way: a container server that exits on EOF gets no diagnosis, and no drill gets a process-level one.
    for (const r of results.drills.filter((x) => x.scenario === 'container-exits-on-eof')) expect(r.incident.diagnosis, r.key).toEqual([]);
    const causes = results.drills.flatMap((r) => (r.incident.diagnosis ?? []).map((g) => g.cause));
    expect(causes.filter((c) => /event loop|interpreter|thread/.test(c))).toEqual([]);
    expect((await engine.docker(['ps', '-aq'])).trim()).toBe('');
  }, 300_000);
});
