/**
 * Stale-run cleanup of containers, both ways: a labelled container of a run whose harness is
 * gone is stopped and removed; one of a live run is not touched.
 */
import { describe, expect, it } from 'vitest';
import { sweepStaleContainers } from '../../harness/containers/index.js';
import { newRunId } from '../../harness/observe/index.js';
import { registerRun } from '../../harness/registry/index.js';
import { engineSuite } from './support/with-engine.js';
import { describeStep } from '../../harness/containment/step.js';

const suite = engineSuite('test/containers/stale.e2e.test.ts');

describe('sweepStaleContainers', () => {
  it('stops and removes the labelled containers of dead runs only', async (ctx) => {
    if (suite.skip) return ctx.skip();
    const engine = suite.engine();
    const dead = newRunId();
    const live = newRunId();
    const registration = registerRun(live);
    try {
      const start = async (runId: string) =>
        (
          await engine.docker([
            'run',
            '-d',
            '--init',
            '--pull',
            'never',
            '--label',
            `dev.crash-drill.run=${runId}.0`,
            suite.image,
            '/usr/bin/node',
            '-e',
            'setInterval(() => {}, 1000)',
          ])
        ).trim();
      const deadId = await start(dead);
      const liveId = await start(live);
      const { reachable, stale } = await sweepStaleContainers({ env: { DOCKER_HOST: engine.host }, runFilter: (runId) => runId === dead || runId === live });
      expect(reachable).toBe(true);
      expect(stale.map((s) => [s.drillId, s.record.id, s.record.endedBy])).toEqual([[`${dead}.0`, deadId, 'stop']]);
      expect(stale[0].record.steps.map(describeStep)).toEqual([
        'docker stop --time 1: sent',
        'docker stop: done',
        'state exited, exit code 143',
        'docker rm: done',
      ]);
      expect((await engine.docker(['ps', '-aq', '--no-trunc'])).trim().split('\n')).toEqual([liveId]);
    } finally {
      registration.unregister();
    }
  }, 120_000);

  it('says so when no engine is reachable', async () => {
    const { reachable, stale } = await sweepStaleContainers({ env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    expect({ reachable, stale }).toEqual({ reachable: false, stale: [] });
  });
});
