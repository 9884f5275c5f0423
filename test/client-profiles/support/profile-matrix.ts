/**
 * The drill under a group of client profiles against the measured ground truth
 * (bench/client-profiles/measured.json): one `crash-drill run --client-profile ... --mode stop,crash`
 * over the fakes the bench measured, at after-response (spawn-helper has started the helper),
 * and the table of drill key -> no-survivors verdict the measurement gives (none: pass; anything
 * else: fail). The grace is the bench's: 2000 ms after the stop sequence's end, or the death.
 *
 * The profiles come in two groups, each drilled by its own test file: every range read of the
 * first eight (profile-matrix.e2e.test.ts) and the clients read since (more-clients-matrix.e2e.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROFILE_NAMES, type ProfileName, type ProfileRef, profileKeySuffix } from '../../../harness/client-profiles/profiles.js';
import { notRepeatedCopies } from '../../../harness/index.js';
import type { RunResults } from '../../../harness/results/types.js';
import { runCli } from '../../support/cli.js';
import { assertDiagnosesAgree } from '../../support/diagnosis-agrees.js';
import { type FakeServer, fakeSubject, scenarioYaml } from '../../support/scenarios.js';
import { tempDir } from '../../support/temp-dir.js';
import { measured, measuredFakes, noSurvivorsVerdict, type Situation } from './measured.js';

export const MODES: Situation[] = ['stop', 'crash'];
export const GRACE = 2000;

/** The first eight profiles, as the first ground truth measured them. */
export const FIRST_PROFILES: ProfileName[] = PROFILE_NAMES.slice(0, PROFILE_NAMES.indexOf('claude-code') + 1);
/** The clients read since (docs/client-profiles.md, "More clients"). */
export const MORE_PROFILES: ProfileName[] = PROFILE_NAMES.slice(FIRST_PROFILES.length);

/** Drill key -> the measured no-survivors verdict, for these profiles (or ranges of one). */
export function expectedTable(profiles: readonly ProfileRef[]): Record<string, string> {
  const data = measured();
  const out: Record<string, string> = {};
  for (const server of measuredFakes())
    for (const mode of MODES)
      for (const profile of profiles) out[`${server}/after-response/${mode}${profileKeySuffix(profile)}`] = noSurvivorsVerdict(data[mode][server][profile]);
  return out;
}

/** The keys of one profile's drills in a table (the default profile's keys carry no suffix). */
export function keysOf(profile: ProfileRef, table: Record<string, string>): [string, string][] {
  return Object.entries(table).filter(([key]) => (profileKeySuffix(profile) === '' ? !key.includes('@') : key.endsWith(profileKeySuffix(profile))));
}

/** Runs the matrix for these profiles, as a user types them (a ref or a version); the report folder and the results. */
export async function runMatrix(profiles: readonly string[]): Promise<{ out: string; results: RunResults; stderr: string }> {
  const dir = tempDir();
  const out = join(dir, 'report');
  for (const server of measuredFakes())
    writeFileSync(
      join(dir, `${server}.yaml`),
      scenarioYaml({
        id: server,
        subject: fakeSubject(server as FakeServer),
        target: { call: 'spawn-helper' },
        points: ['after-response'],
        modes: MODES,
        timeouts: { point: 10000, handshake: 20000 },
        expect: { 'no-survivors': { grace: GRACE } },
      }),
    );
  const run = await runCli(['run', dir, ...profiles.flatMap((p) => ['--client-profile', p]), '--out', out, '--reporter', 'json']);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
  assertDiagnosesAgree(results.drills);
  return { out, stderr: run.stderr, results };
}

/** The evidence events of one drill of a run. */
export function drillEvents(out: string, results: RunResults, key: string): (Record<string, unknown> & { type: string })[] {
  const drill = results.drills.find((d) => d.key === key);
  if (!drill?.evidence) throw new Error(`no evidence for ${key}`);
  return readFileSync(join(out, 'evidence', drill.evidence.file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown> & { type: string });
}

/**
 * Drill key -> its no-survivors verdict, each drill not repeated (the same drill under a profile
 * with the same facts) given the verdict of the drill that ran in its place.
 */
export function verdictsOf(results: RunResults): Record<string, string> {
  const all = [...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)];
  return Object.fromEntries(all.map((d) => [d.key, d.checks.find((c) => c.id === 'no-survivors')?.verdict ?? 'absent']));
}

/** The drills a run left out, as `<key> = <sameAs>`, sorted: each crash drill under a profile of `[profile, ran as]`. */
export function leftOut(results: RunResults): string[] {
  return (results.notRepeated ?? []).map((n) => `${n.key} = ${n.sameAs}`).sort();
}

/** The same under the plan: over every measured fake, crash at after-response under each `[profile, ran as]`. */
export function crashLeftOut(pairs: ReadonlyArray<[ProfileRef, ProfileRef]>): string[] {
  const key = (server: string, profile: ProfileRef) => `${server}/after-response/crash${profileKeySuffix(profile)}`;
  return measuredFakes()
    .flatMap((server) => pairs.map(([p, q]) => `${key(server, p)} = ${key(server, q)}`))
    .sort();
}
