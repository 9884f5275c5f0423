/** A run's summary (results.json `summary`) and the exit code it gives (docs/design.md, "Exit codes"). */
import { EXIT } from '../util/errors.js';
import type { DrillResult, RunSummary } from './types.js';

export function summarize(drills: Iterable<Pick<DrillResult, 'verdict'>>): RunSummary {
  const summary: RunSummary = { pass: 0, fail: 0, unknown: 0, error: 0 };
  for (const drill of drills) summary[drill.verdict] = (summary[drill.verdict] ?? 0) + 1;
  return summary;
}

/** docs/design.md, "Exit codes": 0 all pass, 1 some failed, 2 some unknown and none failed, 4 the harness failed. */
export function exitCodeFor(summary: RunSummary): number {
  if (summary.fail > 0) return EXIT.failed;
  if (summary.error > 0) return EXIT.harness;
  if (summary.unknown > 0) return EXIT.unknown;
  return EXIT.ok;
}
