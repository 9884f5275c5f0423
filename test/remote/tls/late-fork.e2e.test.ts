/**
 * A server forked after the drill's tracker took its first sample is a member before the
 * target call goes out, so the drill remote names it as the drill's candidate when it connects
 * (harness/drill/executor/execute.ts samples once the handshake is done). The server here is
 * the python HTTPS writer behind a launcher that forks it only once the client's first line is
 * on its stdin, which the client writes after the tracker started; the sample interval is longer
 * than the drill, so no tick sees it either. Without that sample the proxy's refusal and the
 * proxied write were attributed by the slower scan of every process (`scan`), or to no drill
 * when the refused server had closed its socket first (two CI runs lost the outside entry).
 */
import { describe, expect, it } from 'vitest';
import { eventsOf, type DrillEvidence } from '../../../harness/evidence/types.js';
import { planRun } from '../../../harness/plan/plan.js';
import { runPlan } from '../../../harness/run/run-plan.js';
import { scenarioFrom, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';
import { HTTPS_WRITER_ENV, HTTPS_WRITER_REMOTE, HTTPS_WRITER_TIMEOUTS, PYTHON_HTTPS } from './language-fakes.js';

/** Waits until stdin is readable (the client's initialize), then runs the server as its child and exits with its status. */
const FORK_ON_INPUT = 'import select, subprocess, sys; select.select([0], [], []); sys.exit(subprocess.call(sys.argv[1:]))';
const WRITE = { op: 'deploy', target: 'web' };

function scenario(id: string, intercept: string) {
  return scenarioFrom(
    scenarioYaml({
      id,
      subject: {
        command: PYTHON_HTTPS.command,
        args: ['-c', FORK_ON_INPUT, PYTHON_HTTPS.command, ...PYTHON_HTTPS.args],
        env: HTTPS_WRITER_ENV,
      },
      target: { call: 'write-hardcoded', args: WRITE },
      points: ['sent'],
      modes: ['crash'],
      timeouts: HTTPS_WRITER_TIMEOUTS,
      remote: { ...HTTPS_WRITER_REMOTE, intercept: [intercept] },
    }),
    tempDir(),
    `${id}.yaml`,
  );
}

/**
 * The server (the launcher's child) is a member of the drill before the target call went out.
 * No event is a lower bound for when it is first seen: the tracker's first sample, recorded before
 * the `tracking` event, found it in a fresh-clone run (seq 9 against 10), and the client's first
 * `rpc-out` is recorded after the write the fork may follow.
 */
function expectSeenBeforeDispatch(evidence: DrillEvidence): void {
  const dispatched = evidence.events.find((e) => e.type === 'dispatched')!.seq;
  const launcher = eventsOf(evidence, 'client-spawned')[0];
  const server = eventsOf(evidence, 'process-new').find((p) => p.cmdline.includes(PYTHON_HTTPS.args[0]) && !p.cmdline.includes('-c'));
  expect(server, `no process-new for the forked server; launcher under ${launcher?.pid}`).toBeDefined();
  expect(server!.seq).toBeLessThan(dispatched);
}

describe('a server forked after the tracker started', () => {
  it('is the drill candidate of its proxied write and of the refusal of a host not listed', async () => {
    const { results, evidence } = await runPlan(
      planRun([scenario('late-listed', 'https://api.example.invalid'), scenario('late-not-listed', 'https://other.example.invalid')]),
      {
        concurrency: 1,
        client: 'inprocess',
        containTermWaitMs: 500,
        sampleIntervalMs: 600_000,
      },
    );
    const byKey = (key: string) => evidence.find((e) => e.meta.key === key)!;
    const listed = byKey('late-listed/sent/crash');
    const notListed = byKey('late-not-listed/sent/crash');
    const remote = (e: DrillEvidence) => eventsOf(e, 'remote').map((r) => r.entry);

    expect(results.drills.map((d) => [d.key, d.verdict])).toEqual([
      ['late-listed/sent/crash', 'pass'],
      ['late-not-listed/sent/crash', 'unknown'],
    ]);
    for (const e of [listed, notListed]) expectSeenBeforeDispatch(e);
    const write = remote(listed).find((r) => r.kind === 'request' && r.write);
    expect(write).toMatchObject({ origin: 'https://api.example.invalid', attribution: 'candidate', path: '/actions' });
    const outside = remote(notListed).filter((r) => r.kind === 'outside');
    expect(outside.map((r) => r.kind === 'outside' && [r.method, r.host, r.port, r.attribution])).toEqual([
      ['CONNECT', 'api.example.invalid', 443, 'candidate'],
    ]);
  }, 120_000);
});
