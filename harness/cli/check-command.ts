import { basename } from 'node:path';
import { ConsoleReporter } from '../../reports/console.js';
import { summaryLine } from '../../reports/summary-line.js';
import { EvidenceLogError, readEvidenceLog } from '../evidence/log.js';
import { verifyLine, verifyPath, VerifyPathError, type VerifyResult } from '../evidence/verify.js';
import { judge, type DrillResult } from '../results/judge.js';
import type { RunResults } from '../results/types.js';
import { harnessInfo } from '../util/version.js';
import { displayPath } from '../util/paths.js';
import { commandExit, EXIT } from '../util/errors.js';
import { exitCodeFor, summarize } from '../results/summary.js';

type Out = { write(s: string): unknown; isTTY?: boolean };

export interface CheckPathResult {
  /** The drills judged again from their saved logs (evidence set from the verified log). */
  results: RunResults;
  /** Logs whose chain is broken (or that are no drill's evidence): reported, not judged. */
  broken: VerifyResult[];
}

/** Verifies, then judges, every log of a file or folder; starts nothing (docs/design.md: checks are pure). */
export function checkPath(path: string): CheckPathResult {
  const startedAt = new Date().toISOString();
  const drills: DrillResult[] = [];
  const broken: VerifyResult[] = [];
  for (const log of verifyPath(path)) {
    if (!log.ok) {
      broken.push(log);
      continue;
    }
    try {
      const result = judge(readEvidenceLog(log.file));
      result.evidence = { file: basename(log.file), head: log.head!, records: log.records };
      drills.push(result);
    } catch (error) {
      if (!(error instanceof EvidenceLogError)) throw error;
      broken.push({
        ...log,
        ok: false,
        problem: { code: 'not-a-drill', line: null, drillId: log.drillId, message: error.message.replace(`${log.file}: `, '') },
      });
    }
  }
  const results: RunResults = {
    version: 1,
    harness: { name: harnessInfo().name, version: harnessInfo().version },
    runId: `check-${startedAt}`,
    startedAt,
    finishedAt: new Date().toISOString(),
    interrupted: false,
    summary: summarize(drills),
    stale: [],
    drills,
  };
  return { results, broken };
}

/**
 * `crash-drill check <evidence>`: verdicts as `run` prints them and the untrusted logs; exits like
 * `run`, a broken log counting as a failure so it cannot let a gate pass.
 */
export function checkCommand(path: string, out: Out = process.stdout, err: Out = process.stderr): Promise<number> {
  return commandExit(err, 'check', () => {
    const { results, broken } = checkPath(path);
    const total = results.drills.length + broken.length;
    if (total === 0) throw new VerifyPathError(`${path}: no evidence log (*.jsonl) in this folder`);
    const reporter = new ConsoleReporter(out);
    for (const [index, drill] of results.drills.entries()) reporter.onDrillEnd(drill, { done: index + 1, total: results.drills.length });
    const notPassed = results.drills.filter((d) => d.verdict !== 'pass');
    if (notPassed.length > 0) {
      out.write('\nDrills that did not pass:\n');
      for (const d of notPassed) out.write(`  ${d.verdict.toUpperCase().padEnd(7)} ${d.scenario} ${d.point}/${d.mode} (${d.id}): ${d.reason}\n`);
    }
    if (broken.length > 0) {
      out.write('\nEvidence that does not verify (not judged):\n');
      for (const log of broken) out.write(`  ${verifyLine(log, displayPath(log.file))}\n`);
    }
    out.write(`\n${summaryLine(results)}${broken.length > 0 ? `, ${broken.length} broken` : ''}\n`);
    return broken.length > 0 ? EXIT.failed : exitCodeFor(results.summary);
  });
}
