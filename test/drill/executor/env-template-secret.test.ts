/**
 * A value a scenario reads through `{{env.NAME}}` (init --from-client writes them where a client
 * configuration held a credential) never reaches the evidence: the drill redacts it like its own
 * session token. The fake server prints it on stdout and stderr; the record holds `[redacted:env.NAME]`, naming where the value came from.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planRun } from '../../../harness/plan/plan.js';
import { runPlan } from '../../../harness/run/run-plan.js';
import { packageRoot } from '../../../harness/util/paths.js';
import { scenarioFrom, scenarioYaml } from '../../support/scenarios.js';

const NAME = 'CRASH_DRILL_TEST_ENV_SECRET';
const SECRET = 'ghp_envtemplate0123456789abcdef';

describe('a credential read through {{env.NAME}}', () => {
  const before = process.env[NAME];
  process.env[NAME] = SECRET;
  afterAll(() => {
    if (before === undefined) delete process.env[NAME];
    else process.env[NAME] = before;
  });

  it('is redacted from the evidence wherever the server prints it', async () => {
    const yaml = scenarioYaml({
      id: 'env-secret',
      subject: {
        command: 'node',
        args: [join(packageRoot(), 'dist/fake-servers/floods.js')],
        env: { FAKE_FLOOD: 'lines:3', FAKE_FLOOD_SECRET: `{{env.${NAME}}}` },
      },
      target: { call: 'flood' },
      points: ['after-response'],
      modes: ['crash'],
    });
    const run = await runPlan(planRun([scenarioFrom(yaml)]), { concurrency: 1 });
    const text = JSON.stringify(run.evidence[0].events);
    const noise = run.evidence[0].events.filter((e) => e.type === 'stdout-noise');
    const placeholder = `[redacted:env.${NAME}]`;
    expect(noise.map((e) => (e as { line: string }).line.slice(0, 8 + placeholder.length))).toEqual([0, 1, 2].map((n) => `noise ${n} ${placeholder}`));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET.slice(0, 12));
  }, 60_000);
});
