/**
 * `crash-drill merge` judges the expectation again on every shard's drills
 * (harness/merge/expectation.ts): met in one shard and not met in another is not met, and what
 * the shards knew of the baseline's statements carries over.
 */
import { describe, expect, it } from 'vitest';
import { judgeExpectations } from '../../harness/expectation/judge.js';
import { applyStatementBaseline } from '../../harness/expectation/baseline.js';
import type { DeclaredExpectation } from '../../harness/expectation/types.js';
import { mergeResults } from '../../harness/merge/results.js';
import type { DrillResult, RunResults } from '../../harness/results/types.js';
import { summarize } from '../../harness/results/summary.js';

const DECLARED: DeclaredExpectation[] = [
  { server: 'srv', command: 'node', args: ['srv.js'], statements: [{ id: 'leaves-no-helper' }, { id: 'stops-accepting-calls' }] },
];

function drill(index: number, key: string, survivors: 'pass' | 'fail'): DrillResult {
  return {
    id: `r${index}`,
    index,
    key,
    verdict: survivors,
    subject: { name: 'srv', command: 'node', args: ['srv.js'] },
    checks: [{ id: 'no-survivors', verdict: survivors, summary: '', data: {} }],
    survivors: [],
  } as unknown as DrillResult;
}

function shard(index: number, drills: DrillResult[], listed: Parameters<typeof applyStatementBaseline>[1] | null): RunResults {
  const expectation = judgeExpectations(DECLARED, drills)!;
  const results: RunResults = {
    version: 1,
    harness: { name: 'mcp-crash-drill', version: '0' },
    runId: `run${index}`,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    interrupted: false,
    summary: summarize(drills),
    stale: [],
    drills,
    shard: { index, total: 2 },
    plan: { id: 'p', drills: 2, repeat: 1 },
    expectation,
  };
  if (listed) results.baseline = { file: 'b.json', entries: 0, known: 0, stale: [], statements: applyStatementBaseline(expectation, listed) };
  return results;
}

describe('merging shards', () => {
  it('a statement met in one shard and not met in another is not met, with the drill that showed it', () => {
    const merged = mergeResults([
      { dir: 'a', results: shard(1, [drill(0, 's/idle/crash', 'pass')], null) },
      { dir: 'b', results: shard(2, [drill(1, 's/idle/close', 'fail')], null) },
    ]);
    expect(merged.expectation?.notMet).toBe(1);
    expect(merged.expectation?.servers[0].statements.map((s) => `${s.statement} ${s.status} ${s.drills.join(',')}`)).toEqual([
      'leaves-no-helper not met s/idle/close',
      'stops-accepting-calls not shown ',
    ]);
  });

  it("keeps the baseline's statements: known in one shard stays known, stale in a shard whose sibling did not meet it is not stale", () => {
    const listed = [{ server: 'srv', statement: 'leaves-no-helper' as const, reason: 'helper' }];
    const a = shard(1, [drill(0, 's/idle/crash', 'pass')], listed);
    const b = shard(2, [drill(1, 's/idle/close', 'fail')], listed);
    expect(a.baseline?.statements?.stale).toEqual(listed);
    const merged = mergeResults([
      { dir: 'a', results: a },
      { dir: 'b', results: b },
    ]);
    expect(merged.expectation?.notMet).toBe(0);
    expect(merged.expectation?.known).toBe(1);
    expect(merged.baseline?.statements).toEqual({ entries: 1, known: 1, stale: [] });
  });
});
