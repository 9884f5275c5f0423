/**
 * The cleanup expectation of merged shards, judged again on all their drills (met in one and not
 * met in another is not met); every shard names the plan's statements (harness/run/run-plan.ts).
 */
import type { RunResults } from '../results/types.js';
import { applyStatementBaseline, statementKey } from '../expectation/baseline.js';
import { judgeExpectations } from '../expectation/judge.js';
import type { DeclaredExpectation } from '../expectation/types.js';
import type { BaselineStatementInfo } from '../results/expectation-results.js';

export function withMergedExpectation(merged: RunResults, runs: readonly RunResults[]): RunResults {
  const declared = new Map<string, DeclaredExpectation>();
  const listed = new Map<string, BaselineStatementInfo>();
  for (const run of runs) {
    for (const server of run.expectation?.servers ?? []) {
      const key = JSON.stringify([server.server, server.command, server.args]);
      if (!declared.has(key))
        declared.set(key, {
          server: server.server,
          command: server.command,
          args: server.args,
          statements: server.statements.map((s) => ({ id: s.statement, ...(s.ms !== undefined ? { ms: s.ms } : {}) })),
        });
      for (const s of server.statements) {
        const entry = { server: server.server, statement: s.statement, reason: s.known?.reason ?? '' };
        if (s.known) listed.set(statementKey(entry), entry);
      }
    }
    for (const e of run.baseline?.statements?.stale ?? []) listed.set(statementKey(e), e);
  }
  const expectation = judgeExpectations([...declared.values()], merged.drills, merged.notRepeated);
  if (!expectation) return merged;
  merged.expectation = expectation;
  const entries = runs.find((r) => r.baseline?.statements)?.baseline?.statements?.entries;
  if (merged.baseline && entries !== undefined) merged.baseline.statements = { ...applyStatementBaseline(expectation, [...listed.values()]), entries };
  return merged;
}
