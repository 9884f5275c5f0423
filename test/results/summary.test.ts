import { describe, expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder, passingDrill } from '../checks/evidence-builder.js';
import { exitCodeFor, summarize } from '../../harness/results/summary.js';

function withVerdict(verdict: DrillResult['verdict']): DrillResult {
  return { ...judge(passingDrill().build()), verdict };
}

describe('summarize', () => {
  it('counts every verdict, zero included', () => {
    expect(summarize([])).toEqual({ pass: 0, fail: 0, unknown: 0, error: 0 });
    const drills = (['pass', 'pass', 'fail', 'unknown', 'unknown', 'unknown', 'error'] as const).map(withVerdict);
    expect(summarize(drills)).toEqual({ pass: 2, fail: 1, unknown: 3, error: 1 });
  });

  it('counts the verdicts judge() gives', () => {
    const failed = judge(passingDrill().stdoutNoise(1120, 'x').build());
    const unknown = judge(new EvidenceBuilder().start(1000).pointTimeout(2000, 'idle', 1000, 'slow').build());
    expect(summarize([judge(passingDrill().build()), failed, unknown])).toEqual({ pass: 1, fail: 1, unknown: 1, error: 0 });
  });
});

describe('exitCodeFor', () => {
  const s = (pass: number, fail: number, unknown: number, error: number) => ({ pass, fail, unknown, error });

  it('is 0 when all passed (and for an empty run)', () => {
    expect(exitCodeFor(s(3, 0, 0, 0))).toBe(0);
    expect(exitCodeFor(s(0, 0, 0, 0))).toBe(0);
  });

  it('is 1 when any drill failed, whatever else happened', () => {
    expect(exitCodeFor(s(3, 1, 0, 0))).toBe(1);
    expect(exitCodeFor(s(0, 1, 5, 0))).toBe(1);
    expect(exitCodeFor(s(0, 1, 5, 2))).toBe(1);
  });

  it('is 4 when the harness errored and nothing failed, even with unknowns', () => {
    expect(exitCodeFor(s(3, 0, 0, 1))).toBe(4);
    expect(exitCodeFor(s(0, 0, 4, 1))).toBe(4);
  });

  it('is 2 when some drill is unknown and none failed or errored', () => {
    expect(exitCodeFor(s(3, 0, 1, 0))).toBe(2);
    expect(exitCodeFor(s(0, 0, 1, 0))).toBe(2);
  });
});
