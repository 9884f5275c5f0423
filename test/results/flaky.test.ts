import { describe, expect, it } from 'vitest';
import { findFlaky, runExitCode } from '../../harness/results/flaky.js';
import type { DrillResult } from '../../harness/results/types.js';
import { failed, passed, unknown } from '../reports/fixtures.js';
import { summarize } from '../../harness/results/summary.js';

/** A real judged result, re-labelled as attempt `attempt` of drill `key`. */
function attempt(base: () => DrillResult, key: string, index: number, n: number): DrillResult {
  return { ...base(), key, index, attempt: n };
}

describe('findFlaky', () => {
  it('flags a key whose attempts disagree, with every verdict in attempt order', () => {
    const drills = [attempt(passed, 'a/idle/crash', 0, 1), attempt(failed, 'a/idle/crash', 0, 2), attempt(passed, 'a/idle/crash', 0, 3)];
    expect(findFlaky(drills)).toEqual([{ key: 'a/idle/crash', verdicts: ['pass', 'fail', 'pass'] }]);
  });

  it('does not flag keys whose attempts agree, even when they all fail', () => {
    const drills = [
      attempt(passed, 'a/idle/crash', 0, 1),
      attempt(passed, 'a/idle/crash', 0, 2),
      attempt(failed, 'a/idle/close', 1, 1),
      attempt(failed, 'a/idle/close', 1, 2),
    ];
    expect(findFlaky(drills)).toEqual([]);
  });

  it('does not flag single attempts (a run without --repeat)', () => {
    expect(findFlaky([passed(), failed(), unknown()].map((d, i) => ({ ...d, key: `k${i}`, index: i })))).toEqual([]);
  });

  it('orders by plan index and sorts attempts that arrive out of order (merged shards)', () => {
    const drills = [
      attempt(unknown, 'b/sent/crash', 5, 2),
      attempt(passed, 'b/sent/crash', 5, 1),
      attempt(failed, 'a/idle/crash', 2, 1),
      attempt(passed, 'a/idle/crash', 2, 2),
    ];
    expect(findFlaky(drills)).toEqual([
      { key: 'a/idle/crash', verdicts: ['fail', 'pass'] },
      { key: 'b/sent/crash', verdicts: ['pass', 'unknown'] },
    ]);
  });
});

describe('runExitCode', () => {
  it('counts a flaky drill as failed', () => {
    const drills = [attempt(passed, 'a', 0, 1), attempt(unknown, 'a', 0, 2)];
    const summary = summarize(drills);
    expect(runExitCode({ summary, flaky: [] })).toBe(2);
    expect(runExitCode({ summary, flaky: findFlaky(drills) })).toBe(1);
  });

  it('is exitCodeFor without flakiness', () => {
    const drills = [attempt(passed, 'a', 0, 1), attempt(passed, 'a', 0, 2)];
    expect(runExitCode({ summary: summarize(drills), flaky: findFlaky(drills) })).toBe(0);
    expect(runExitCode({ summary: summarize(drills) })).toBe(0);
  });
});

describe('the console reporter', () => {
  it('prints a flaky section only when some drill is flaky', async () => {
    const { ConsoleReporter } = await import('../../reports/console.js');
    const { runResults } = await import('../reports/fixtures.js');
    const print = (flaky: { key: string; verdicts: DrillResult['verdict'][] }[]) => {
      let text = '';
      new ConsoleReporter({ write: (s: string) => (text += s) }).onRunEnd(runResults([passed()], { flaky }));
      return text;
    };
    const text = print([{ key: 'a/idle/crash', verdicts: ['pass', 'fail', 'pass'] }]);
    expect(text).toContain('Flaky drills (verdicts differ across attempts; counted as failed):\n  FLAKY   a/idle/crash: pass, fail, pass\n');
    expect(text.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 unknown');
    expect(print([])).not.toContain('Flaky');
  });
});
