/**
 * The drill under the first eight client profiles gives the no-survivors verdicts an independent
 * client of that profile measures (docs/client-profiles.md, "Measured: who survives"): one
 * `crash-drill run --client-profile <p> ... --mode stop,crash` over the six fakes that tell the
 * profiles apart and the bundled ones the bench measured, at after-response (spawn-helper has
 * started the helper), and the table of drill key -> no-survivors verdict asserted exactly, as
 * derived from bench/client-profiles/measured.json (the file the docs' tables are checked
 * against: test/client-profiles/measured-docs.test.ts). Every profile has both a pass and a
 * fail in it. The grace is the bench's: 2000 ms after the stop sequence's end, or the death.
 * The clients read since are drilled the same way by more-clients-matrix.e2e.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { profileKeySuffix, type ProfileName } from '../../harness/client-profiles/profiles.js';
import type { RunResults } from '../../harness/results/types.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { drillEvents, expectedTable, FIRST_PROFILES, keysOf, runMatrix } from './support/profile-matrix.js';

beforeAll(ensureBuilt);

describe('the drill under the first eight client profiles', () => {
  let results: RunResults;
  let out: string;

  beforeAll(async () => {
    const run = await runMatrix(FIRST_PROFILES);
    expect(run.stderr).not.toMatch(/error/i);
    ({ out, results } = run);
  }, 900_000);

  it('gives exactly the measured no-survivors verdicts, per profile, in stop and crash', () => {
    const got = Object.fromEntries(results.drills.map((d) => [d.key, d.checks.find((c) => c.id === 'no-survivors')?.verdict ?? 'absent']));
    expect(results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
    expect(got).toEqual(expectedTable(FIRST_PROFILES));
  });

  it('each profile is proven both ways: it has a pass and a fail', () => {
    const table = expectedTable(FIRST_PROFILES);
    for (const profile of FIRST_PROFILES) expect(new Set(keysOf(profile, table).map(([, v]) => v)), profile).toEqual(new Set(['pass', 'fail']));
  });

  it('the record names the profile and every step its client took', () => {
    const drill = (key: string) => results.drills.find((d) => d.key === key)!;
    const events = (key: string) => drillEvents(out, results, key);
    for (const profile of FIRST_PROFILES)
      expect(drill(`well-behaved/after-response/stop${profileKeySuffix(profile)}`).clientProfile).toBe(profile as ProfileName);
    // Codex: SIGTERM to the group (by identity, the server's group), then its wait, its conditional SIGKILL, and the stdin close.
    const codex = events('helper-own-group/after-response/stop@codex');
    expect(codex.find((e) => e.type === 'client-profile')).toMatchObject({ profile: { name: 'codex', spawn: { group: 'own-group' } } });
    const steps = codex.filter((e) => e.type === 'stop-step');
    expect(steps.map((e) => [(e.step as { kind: string }).kind, e.result])).toEqual([
      ['signal', 'sent'],
      ['wait-ms', 'ended-early'],
      ['signal', 'skipped'],
      ['close-stdin', 'done'],
    ]);
    expect(steps[0].targets).toEqual([expect.objectContaining({ result: 'sent' })]);
    // Goose's crash: the kernel's parent-death SIGTERM to the launcher, recorded at the death.
    const goose = events('launcher-forwards-signals/after-response/crash@goose');
    expect(goose.find((e) => e.type === 'parent-death-signal')).toMatchObject({ signal: 'SIGTERM' });
  });
});
