/**
 * The drill under the first eight client profiles, every range read of them, gives the
 * no-survivors verdicts an independent client of that profile measures (docs/client-profiles.md, "Measured: who survives"): one
 * `crash-drill run --client-profile <p> ... --mode stop,crash` over the six fakes that tell the
 * profiles apart and the bundled ones the bench measured, at after-response (spawn-helper has
 * started the helper), and the table of drill key -> no-survivors verdict asserted exactly, as
 * derived from bench/client-profiles/measured.json (the file the docs' tables are checked
 * against: test/client-profiles/measured-docs.test.ts). A crash under a profile with the facts of
 * one before it is not repeated (harness/plan/profile-inputs.ts): its verdict is the drill's that
 * ran, and the measurement, taken under each profile apart, agrees. Every profile has both a pass
 * and a fail in it. The grace is the bench's: 2000 ms after the stop sequence's end, or the death.
 * The clients read since are drilled the same way by more-clients-matrix.e2e.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_REFS as ALL_REFS, profileKeySuffix, profileNameOf, type ProfileRef } from '../../harness/client-profiles/profiles.js';
import type { RunResults } from '../../harness/results/types.js';
import { ensureBuilt } from '../fake-servers/support/subjects.js';
import { crashLeftOut, drillEvents, expectedTable as table, FIRST_PROFILES, keysOf, leftOut, runMatrix, verdictsOf } from './support/profile-matrix.js';

/** Every range read of the first eight profiles. */
const PROFILE_REFS = ALL_REFS.filter((r) => FIRST_PROFILES.includes(profileNameOf(r)));

beforeAll(ensureBuilt);

const expectedTable = () => table(PROFILE_REFS);

describe('the drill under the first eight client profiles', () => {
  let results: RunResults;
  let out: string;

  beforeAll(async () => {
    // Gemini CLI's older range by a version inside it, as a user names it: it must key as the range.
    const run = await runMatrix(PROFILE_REFS.map((p) => (p === 'gemini-cli@0.27-0.51' ? 'gemini-cli@0.45' : p)));
    expect(run.stderr).not.toMatch(/error/i);
    ({ out, results } = run);
  }, 900_000);

  it('gives exactly the measured no-survivors verdicts, per profile, in stop and crash', () => {
    expect(results.drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`)).toEqual([]);
    expect(verdictsOf(results)).toEqual(expectedTable());
  });

  it('drills a crash once per set of facts: each older range as its newest, Claude Code as VS Code', () => {
    expect(leftOut(results)).toEqual(
      crashLeftOut([
        ['codex@drop', 'codex'],
        ['gemini-cli@0.27-0.51', 'gemini-cli'],
        ['vscode@ce34ccc3', 'vscode'],
        ['claude-code', 'vscode'],
      ]),
    );
    expect(results.drills).toHaveLength(Object.keys(expectedTable()).length - leftOut(results).length);
  });

  it('each profile is proven both ways: it has a pass and a fail', () => {
    const table = expectedTable();
    for (const profile of PROFILE_REFS) expect(new Set(keysOf(profile, table).map(([, v]) => v)), profile).toEqual(new Set(['pass', 'fail']));
  });

  it('the record names the profile and every step its client took', () => {
    const drill = (key: string) => results.drills.find((d) => d.key === key)!;
    const events = (key: string) => drillEvents(out, results, key);
    for (const profile of PROFILE_REFS) expect(drill(`well-behaved/after-response/stop${profileKeySuffix(profile)}`).clientProfile).toBe(profile as ProfileRef);
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
    // Gemini CLI by version: gemini-cli@0.45 ran the SDK ladder of 0.27-0.51 (stdin, then a SIGTERM
    // the server's exit made unneeded), gemini-cli the lone SIGTERM of >=0.52; each drill names its range.
    const kinds = (key: string) =>
      events(key)
        .filter((e) => e.type === 'stop-step')
        .map((e) => [(e.step as { kind: string; name?: string }).name ?? (e.step as { kind: string }).kind, e.result]);
    expect(kinds('ignores-sigterm-exits-on-eof/after-response/stop@gemini-cli@0.27-0.51')).toEqual([
      ['close-stdin', 'done'],
      ['wait-ms', 'ended-early'],
      ['SIGTERM', 'skipped'],
      ['wait-ms', 'ended-early'],
      ['SIGKILL', 'skipped'],
    ]);
    expect(kinds('ignores-sigterm-exits-on-eof/after-response/stop@gemini-cli')).toEqual([['SIGTERM', 'sent']]);
    expect(
      ['stop@gemini-cli@0.27-0.51', 'stop@gemini-cli'].map((m) => drill(`well-behaved/after-response/${m}`)).map((d) => [d.clientProfile, d.clientVersions]),
    ).toEqual([
      ['gemini-cli@0.27-0.51', '0.27-0.51'],
      ['gemini-cli', '>=0.52'],
    ]);
    // Goose's crash: the kernel's parent-death SIGTERM to the launcher, recorded at the death.
    const goose = events('launcher-forwards-signals/after-response/crash@goose');
    expect(goose.find((e) => e.type === 'parent-death-signal')).toMatchObject({ signal: 'SIGTERM' });
  });
});
