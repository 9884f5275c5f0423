/** Flakiness across repeated attempts: a drill key whose attempts did not all get the same verdict. Pure. */
import type { DrillResult } from './judge.js';
import { EXIT } from '../util/errors.js';
import type { FlakyEntry, RunResults } from './types.js';
import { exitCodeFor } from './summary.js';

export type { FlakyEntry } from './types.js';

/** The keys whose attempts disagree, in plan order (then first appearance). */
export function findFlaky(drills: Iterable<Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>>): FlakyEntry[] {
  const byKey = new Map<string, { order: number; attempts: { attempt: number; verdict: DrillResult['verdict'] }[] }>();
  let position = 0;
  for (const drill of drills) {
    const entry = byKey.get(drill.key) ?? { order: drill.index ?? position, attempts: [] };
    entry.attempts.push({ attempt: drill.attempt ?? 1, verdict: drill.verdict });
    byKey.set(drill.key, entry);
    position++;
  }
  return [...byKey.entries()]
    .filter(([, e]) => new Set(e.attempts.map((a) => a.verdict)).size > 1)
    .sort((a, b) => a[1].order - b[1].order)
    .map(([key, e]) => ({ key, verdicts: [...e.attempts].sort((a, b) => a.attempt - b.attempt).map((a) => a.verdict) }));
}

/** The exit code of a run or a merge (docs/design.md, "Exit codes"), a flaky drill counting as failed: a CI gate never passes on a coin toss. */
export function runExitCode(results: Pick<RunResults, 'summary' | 'flaky' | 'baseline' | 'expectation'>): number {
  if ((results.flaky?.length ?? 0) > 0) return EXIT.failed;
  // A baseline entry that now passes fails the run until it is removed (harness/baseline).
  if ((results.baseline?.stale.length ?? 0) > 0) return EXIT.failed;
  // A statement not met fails the run as a failed check does, unless the baseline lists it.
  if ((results.expectation?.notMet ?? 0) > 0 || (results.baseline?.statements?.stale.length ?? 0) > 0) return EXIT.failed;
  return exitCodeFor(results.summary);
}
