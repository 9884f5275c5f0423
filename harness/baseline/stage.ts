/**
 * The baseline in a run: a reporter placed before every other one (harness/run/run-drills.ts),
 * so each result is marked before anyone prints it, and results.json carries the `baseline`
 * section. With `update`, the file is rewritten from the run at its end and the run is judged
 * against the new file (what failed is now listed, stale entries are gone).
 */
import type { Reporter } from '../../reports/types.js';
import { findFlaky } from '../results/flaky.js';
import type { DrillResult, RunReport } from '../results/types.js';
import { replaceDrill } from '../results/drill-spool.js';
import { BaselineIndex } from './apply.js';
import type { Baseline } from './load.js';
import { updatedEntries, writeBaseline } from './write.js';
import { applyStatementBaseline, updatedStatements } from '../expectation/baseline.js';
import { summarize } from '../results/summary.js';

export interface BaselineStageOptions {
  /** The file as the user named it, said back in reports. */
  shownAs: string;
  /** `--update-baseline`: rewrite the file from this run. */
  update?: boolean;
}

export function baselineStage(baseline: Baseline, options: BaselineStageOptions): Reporter {
  let index = new BaselineIndex(baseline);
  // Each drill's own verdict and reason (by drill id), so an update can judge it again against the new file.
  const judged = new Map<string, { verdict: DrillResult['verdict']; reason: string }>();
  return {
    name: 'baseline',
    onRunStart(info) {
      // Entries of drills the plan left out as not repeated absorb the failures of the drill that runs in their place.
      if (info.notRepeated) index = new BaselineIndex(baseline, info.notRepeated);
    },
    onDrillEnd(result) {
      judged.set(result.id, { verdict: result.verdict, reason: result.reason });
      index.apply(result);
    },
    onRunEnd(results: RunReport) {
      let updated: { added: number; removed: number } | undefined;
      let statements = baseline.statements ?? [];
      if (options.update) {
        const update = updatedEntries(baseline, results.drills, results.notRepeated);
        const said = updatedStatements(statements, results.expectation);
        statements = said.statements;
        writeBaseline(baseline.file, update.entries, statements);
        updated = { added: update.added + said.added, removed: update.removed + said.removed };
        index = new BaselineIndex({ file: baseline.file, entries: update.entries }, results.notRepeated);
        for (let i = 0; i < results.drills.length; i++) {
          const drill = results.drills.at(i)!;
          const own = judged.get(drill.id);
          if (own) Object.assign(drill, own);
          delete drill.known;
          replaceDrill(results.drills, i, index.apply(drill));
        }
        results.summary = summarize(results.drills);
        results.flaky = findFlaky(results.drills);
      }
      results.summary.known ??= 0;
      results.baseline = {
        file: options.shownAs,
        entries: index.baseline.entries.length,
        known: knownCount(results.drills),
        stale: index.stale(results.drills),
        ...(updated ? { updated } : {}),
      };
      // Cleanup-expectation statements are baselined as checks are (harness/expectation/baseline.ts).
      if (results.expectation) results.baseline.statements = applyStatementBaseline(results.expectation, statements);
      else if (statements.length > 0) results.baseline.statements = { entries: statements.length, known: 0, stale: [] };
    },
  };
}

function knownCount(drills: Iterable<DrillResult>): number {
  let n = 0;
  for (const d of drills) n += d.known?.length ?? 0;
  return n;
}
