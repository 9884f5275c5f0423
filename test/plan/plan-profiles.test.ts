/**
 * Client profiles in the plan (harness/plan/plan.ts): each drill once per profile, a key that
 * names a profile other than the default (`@<profile>` after the mode) and none for the default,
 * so a run of the default profile alone plans the very keys and indexes it planned before.
 */
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../harness/client-profiles/profiles.js';
import { parseScenario, type Scenario } from '../../harness/config/index.js';
import { planRun } from '../../harness/plan/plan.js';
import { sameDrillKey } from '../../harness/plan/not-repeated.js';
import { scenarioYaml } from '../support/scenarios.js';

function scenario(id: string, extra: Record<string, unknown> = {}): Scenario {
  const yaml = scenarioYaml({
    id,
    subject: { command: 'node', args: ['server.js'] },
    target: { call: 'echo' },
    points: ['idle'],
    modes: ['crash', 'stop'],
    ...extra,
  });
  return parseScenario(yaml, `/tmp/scenarios/${id}.yaml`);
}

const keys = (plan: ReturnType<typeof planRun>) => plan.drills.map((d) => [d.index, d.key, d.profile]);

describe('client profiles in the plan', () => {
  it('a scenario that names none plans the default profile, with the keys of before', () => {
    expect(keys(planRun([scenario('a')]))).toEqual([
      [0, 'a/idle/crash', 'ts-sdk'],
      [1, 'a/idle/stop', 'ts-sdk'],
    ]);
  });

  it("a scenario's client-profiles: each drill once per profile, the default's key unchanged", () => {
    expect(keys(planRun([scenario('a', { 'client-profiles': ['ts-sdk', 'codex'] })]))).toEqual([
      [0, 'a/idle/crash', 'ts-sdk'],
      [1, 'a/idle/crash@codex', 'codex'],
      [2, 'a/idle/stop', 'ts-sdk'],
      [3, 'a/idle/stop@codex', 'codex'],
    ]);
  });

  it("the run's profiles (--client-profile, the config file) replace the scenario's", () => {
    const plan = planRun([scenario('a', { 'client-profiles': ['ts-sdk', 'codex'] })], { clientProfiles: ['zed'], modes: ['stop'] });
    expect(keys(plan)).toEqual([[1, 'a/idle/stop@zed', 'zed']]);
  });

  it('two profiles whose facts differ never make the same drill (not-repeated.ts counts what the drill reads of them)', () => {
    const plan = planRun([scenario('a'), scenario('b')], { clientProfiles: ['ts-sdk', 'zed'] });
    expect(plan.notRepeated.map((n) => [n.key, n.sameAs])).toEqual([
      ['b/idle/crash', 'a/idle/crash'],
      ['b/idle/crash@zed', 'a/idle/crash@zed'],
      ['b/idle/stop', 'a/idle/stop'],
      ['b/idle/stop@zed', 'a/idle/stop@zed'],
    ]);
    const [ts, zed] = plan.drills.slice(0, 2);
    expect(sameDrillKey(ts)).not.toEqual(sameDrillKey(zed));
  });

  it('a version picks its range: the newest is the bare name, an older range keys its drills by its label', () => {
    const plan = planRun([scenario('a', { 'client-profiles': ['gemini-cli@0.45', 'gemini-cli@0.55'] })], { modes: ['stop'] });
    expect(keys(plan)).toEqual([
      [2, 'a/idle/stop@gemini-cli@0.27-0.51', 'gemini-cli@0.27-0.51'],
      [3, 'a/idle/stop@gemini-cli', 'gemini-cli'],
    ]);
    expect(() => scenario('a', { 'client-profiles': ['gemini-cli@0.51', 'gemini-cli@0.27-0.51'] })).toThrow(
      /client-profiles\[1\]: duplicate client profile "gemini-cli@0.27-0.51"; list each once/,
    );
  });

  it('refuses an unknown profile or version in a scenario, naming the field and what was expected', () => {
    expect(() => scenario('a', { 'client-profiles': ['windsurf'] })).toThrow(
      `client-profiles[0]: unknown client profile "windsurf"; expected one of ${PROFILE_NAMES.join(', ')}, each optionally @<version> or @<range>`,
    );
    expect(() => scenario('a', { 'client-profiles': ['ts-sdk', 'gemini-cli@9.x'] })).toThrow(
      'client-profiles[1]: gemini-cli@9.x: expected gemini-cli@<version> (a version such as 1.2 or 1.2.3) or gemini-cli@<range>; the ranges read: >=0.52 (0.52 to 0.56), 0.27-0.51 (0.27 to 0.51)',
    );
  });
});
