/**
 * The exit class of a server behind a launcher is the server's own. The
 * launcher is `sh -c 'node <server>; exit $?'`, the link of npx's chain (npm exec -> sh -c ->
 * node) that reaps the server: sh waits for it, so the observer mostly finds it gone without a
 * status, and sh exits with it (a code as it is). Whichever status was read, the server's own
 * or sh's, the class is the server's, exactly: clean for one that exits 0 on EOF, crash (code 1,
 * the EPIPE line) for one that dies writing to its lost client. Before, it was `unknown`
 * whenever sh reaped it first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { planRun } from '../../harness/plan/plan.js';
import { runPlan } from '../../harness/run/run-plan.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { fakeSubject, scenarioFrom, scenarioYaml, type FakeServer } from '../support/scenarios.js';
import { markedProcesses } from '../support/markers.js';
import { tempDir } from '../support/temp-dir.js';
import { until } from '../support/until.js';

beforeAll(ensureBuilt);

function behindSh(id: string, server: FakeServer) {
  const { args } = fakeSubject(server);
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: { command: 'sh', args: ['-c', `node '${args?.[0]}'; exit $?`], name: server },
      target: { call: 'echo', args: { text: 'x' } },
      points: ['idle'],
      modes: ['crash'],
      timeouts: { handshake: 20000 },
    }),
    tempDir(),
    `${id}.yaml`,
  );
}

describe('the exit class behind sh -c', () => {
  let drills: DrillResult[];
  const exitOf = (id: string) => drills.find((d) => d.scenario === id)?.exit;

  beforeAll(async () => {
    const { results } = await runPlan(planRun([behindSh('clean-behind-sh', 'well-behaved'), behindSh('crash-behind-sh', 'crashes-on-epipe')]), {
      concurrency: 1,
    });
    drills = results.drills;
    for (const d of drills) console.log(`${d.scenario}: class ${d.exit?.class} read from the ${d.exit?.statusFrom}'s status`);
    await until('no process of the run', () => markedProcesses(results.runId).length === 0);
  }, 120_000);

  it('a server that exits 0 on EOF: clean, of the node server, not of sh', () => {
    const exit = exitOf('clean-behind-sh');
    expect(exit).toMatchObject({ class: 'clean', code: 0, signal: null, crash: null });
    expect(exit?.launcher?.command).toMatch(/^sh -c node /);
    expect(exit?.pid).not.toBe(exit?.launcher?.pid);
    expect(['server', 'launcher']).toContain(exit?.statusFrom);
  });

  it('a server that dies of an unhandled EPIPE: crash, code 1, with its line', () => {
    const exit = exitOf('crash-behind-sh');
    expect(exit).toMatchObject({ class: 'crash', code: 1, signal: null, crash: 'Error: write EPIPE' });
    expect(exit?.pid).not.toBe(exit?.launcher?.pid);
    expect(['server', 'launcher']).toContain(exit?.statusFrom);
  });
});
