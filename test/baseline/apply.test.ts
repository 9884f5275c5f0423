/**
 * The baseline's rules on results (harness/baseline): a listed failure is known, a new one is
 * not; unknown and error are never absorbed; an entry that now passes is stale, judged only
 * on drills that ran; what the `baseline` command writes, and how an update keeps reasons.
 */
import { describe, expect, it } from 'vitest';
import { BaselineIndex } from '../../harness/baseline/apply.js';
import { collectEntries } from '../../harness/baseline/collect.js';
import type { Baseline } from '../../harness/baseline/load.js';
import { baselineText, updatedEntries } from '../../harness/baseline/write.js';
import { parseBaseline } from '../../harness/baseline/load.js';
import { runExitCode } from '../../harness/results/flaky.js';
import { mergeResults } from '../../harness/merge/results.js';
import type { BaselineEntryInfo, DrillResult, RunResults } from '../../harness/results/types.js';
import { summarize } from '../../harness/results/summary.js';

type C = [id: string, verdict: 'pass' | 'fail' | 'unknown'];

function drill(key: string, verdict: DrillResult['verdict'], checks: C[]): DrillResult {
  return {
    key,
    verdict,
    reason: `reason of ${key}`,
    checks: checks.map(([id, v]) => ({ id, verdict: v, summary: `${id} ${v}`, data: {} })),
  } as unknown as DrillResult;
}

function entry(drillKey: string, check: string | null, verdict: BaselineEntryInfo['verdict'] = 'fail', reason = ''): BaselineEntryInfo {
  return { drill: drillKey, check, verdict, reason } as BaselineEntryInfo;
}

const base = (entries: BaselineEntryInfo[]): Baseline => ({ file: '/x/crash-drill.baseline.json', entries });

describe('BaselineIndex.apply', () => {
  it('absorbs exactly the listed failures: known when all are, fail when one is new', () => {
    const index = new BaselineIndex(base([entry('s/idle/crash', 'exit-on-eof', 'fail', 'SDK 1'), entry('s/idle/crash', 'no-survivors')]));
    const all = index.apply(
      drill('s/idle/crash', 'fail', [
        ['exit-on-eof', 'fail'],
        ['no-survivors', 'fail'],
        ['stdout-clean', 'pass'],
      ]),
    );
    expect([all.verdict, all.known]).toEqual([
      'known',
      [
        { check: 'exit-on-eof', reason: 'SDK 1' },
        { check: 'no-survivors', reason: '' },
      ],
    ]);
    const partly = new BaselineIndex(base([entry('s/idle/crash', 'exit-on-eof')])).apply(
      drill('s/idle/crash', 'fail', [
        ['exit-on-eof', 'fail'],
        ['no-survivors', 'fail'],
      ]),
    );
    expect([partly.verdict, partly.known]).toEqual(['fail', [{ check: 'exit-on-eof', reason: '' }]]);
    // The same check of another drill is another entry.
    const other = index.apply(drill('s/idle/close', 'fail', [['exit-on-eof', 'fail']]));
    expect([other.verdict, other.known]).toEqual(['fail', undefined]);
  });

  it('never absorbs unknown or error, whatever the entry says', () => {
    const index = new BaselineIndex(
      base([
        entry('s/idle/crash', 'no-survivors', 'unknown'),
        entry('s/idle/crash', 'exit-on-eof'),
        entry('e/idle/crash', null, 'error'),
        entry('e/idle/crash', 'exit-on-eof'),
      ]),
    );
    // A known failure beside an unknown check: the drill is unknown, never known or pass.
    const d = index.apply(
      drill('s/idle/crash', 'fail', [
        ['exit-on-eof', 'fail'],
        ['no-survivors', 'unknown'],
      ]),
    );
    expect([d.verdict, d.reason]).toEqual(['unknown', 'no-survivors: no-survivors unknown']);
    const err = index.apply(drill('e/idle/crash', 'error', [['exit-on-eof', 'fail']]));
    expect([err.verdict, err.known]).toEqual(['error', undefined]);
    // An entry listed as unknown does not absorb the check when it fails.
    const failsNow = new BaselineIndex(base([entry('s/idle/crash', 'no-survivors', 'unknown')])).apply(
      drill('s/idle/crash', 'fail', [['no-survivors', 'fail']]),
    );
    expect(failsNow.verdict).toBe('fail');
  });

  it('a run with only known failures exits 0; a new failure, an unknown or a stale entry does not', () => {
    const index = new BaselineIndex(base([entry('s/idle/crash', 'exit-on-eof')]));
    const drills = [index.apply(drill('s/idle/crash', 'fail', [['exit-on-eof', 'fail']])), drill('g/idle/crash', 'pass', [['exit-on-eof', 'pass']])];
    expect(runExitCode({ summary: summarize(drills), baseline: { file: 'b', entries: 1, known: 1, stale: index.stale(drills) } })).toBe(0);
    expect(summarize(drills)).toEqual({ pass: 1, fail: 0, unknown: 0, error: 0, known: 1 });
    const stale = [entry('g/idle/crash', 'exit-on-eof')];
    expect(runExitCode({ summary: summarize(drills), baseline: { file: 'b', entries: 2, known: 1, stale } })).toBe(1);
  });
});

describe('BaselineIndex.stale', () => {
  it('lists an entry whose check now passes or no longer applies, and no entry of a drill that did not run or erred', () => {
    const entries = [
      entry('a/idle/crash', 'exit-on-eof'), // passes now: stale
      entry('a/idle/crash', 'jobs-settled'), // no longer applies: stale
      entry('b/idle/crash', 'exit-on-eof'), // still fails
      entry('c/idle/crash', 'exit-on-eof'), // not run (filtered, another shard): not judged
      entry('d/idle/crash', 'exit-on-eof'), // the drill erred: cannot tell
      entry('e/idle/crash', null, 'error'), // the drill passes now: stale
      entry('f/idle/crash', 'no-survivors', 'unknown'), // still unknown
    ];
    const drills = [
      drill('a/idle/crash', 'pass', [['exit-on-eof', 'pass']]),
      drill('b/idle/crash', 'fail', [['exit-on-eof', 'fail']]),
      drill('d/idle/crash', 'error', []),
      drill('e/idle/crash', 'pass', [['exit-on-eof', 'pass']]),
      drill('f/idle/crash', 'unknown', [['no-survivors', 'unknown']]),
    ];
    expect(new BaselineIndex(base(entries)).stale(drills)).toEqual([entries[0], entries[1], entries[5]]);
  });

  it('with repeats, an entry is stale only when every attempt passes', () => {
    const e = entry('a/idle/crash', 'exit-on-eof');
    const index = new BaselineIndex(base([e]));
    expect(index.stale([drill('a/idle/crash', 'pass', [['exit-on-eof', 'pass']]), drill('a/idle/crash', 'fail', [['exit-on-eof', 'fail']])])).toEqual([]);
    expect(index.stale([drill('a/idle/crash', 'pass', [['exit-on-eof', 'pass']]), drill('a/idle/crash', 'pass', [['exit-on-eof', 'pass']])])).toEqual([e]);
  });
});

describe('what a baseline lists', () => {
  it('every check that did not pass, the drill itself when it erred or is unknown with no check to blame', () => {
    const drills = [
      drill('a/idle/crash', 'fail', [
        ['exit-on-eof', 'fail'],
        ['no-survivors', 'unknown'],
        ['stdout-clean', 'pass'],
      ]),
      drill('b/idle/crash', 'error', [['exit-on-eof', 'unknown']]),
      drill('c/in-flight/crash', 'unknown', [['stdout-clean', 'pass']]),
      drill('d/idle/crash', 'pass', [['exit-on-eof', 'pass']]),
    ];
    expect(collectEntries(drills)).toEqual([
      entry('a/idle/crash', 'exit-on-eof', 'fail'),
      entry('a/idle/crash', 'no-survivors', 'unknown'),
      entry('b/idle/crash', null, 'error'),
      entry('c/in-flight/crash', null, 'unknown'),
    ]);
  });

  it('an update keeps reasons, adds new failures, removes what passes and keeps entries of drills that did not run', () => {
    const old = base([
      entry('a/idle/crash', 'exit-on-eof', 'fail', 'known since 1.0'),
      entry('a/idle/crash', 'no-survivors', 'fail', 'gone'),
      entry('z/idle/crash', 'stdout-clean', 'fail', 'other shard'),
    ]);
    const update = updatedEntries(old, [
      drill('a/idle/crash', 'fail', [
        ['exit-on-eof', 'fail'],
        ['no-survivors', 'pass'],
        ['stdout-clean', 'fail'],
      ]),
    ]);
    expect(update).toEqual({
      entries: [
        entry('a/idle/crash', 'exit-on-eof', 'fail', 'known since 1.0'),
        entry('a/idle/crash', 'stdout-clean'),
        entry('z/idle/crash', 'stdout-clean', 'fail', 'other shard'),
      ],
      added: 1,
      removed: 1,
    });
    // What is written reads back the same.
    expect(parseBaseline(baselineText(update.entries), '/x/b.json').entries).toEqual(update.entries);
  });
});

describe('merging shards of a run with a baseline', () => {
  it("keeps known verdicts, sums what was absorbed and fails on the union of the shards' stale entries", () => {
    const shard = (index: number, drills: DrillResult[], stale: BaselineEntryInfo[]): RunResults =>
      ({
        version: 1,
        harness: { name: 'mcp-crash-drill', version: '1' },
        runId: `r${index}`,
        startedAt: 't',
        finishedAt: 't',
        interrupted: false,
        summary: summarize(drills),
        stale: [],
        drills: drills.map((d, i) => ({ ...d, id: `r${index}.${i}`, index: index * 10 + i })),
        shard: { index, total: 2 },
        plan: { id: 'p', drills: 3, repeat: 1 },
        baseline: { file: 'b.json', entries: 3, known: drills.filter((d) => d.verdict === 'known').length, stale },
      }) as RunResults;
    const stale = entry('g/idle/crash', 'exit-on-eof');
    const merged = mergeResults([
      { dir: 'a', results: shard(1, [drill('s/idle/crash', 'known', [['exit-on-eof', 'fail']])], []) },
      { dir: 'b', results: shard(2, [drill('g/idle/crash', 'pass', [['exit-on-eof', 'pass']])], [stale]) },
    ]);
    expect(merged.summary).toEqual({ pass: 1, fail: 0, unknown: 0, error: 0, known: 1 });
    expect(merged.baseline).toEqual({ file: 'b.json', entries: 3, known: 1, stale: [stale] });
    expect(runExitCode(merged)).toBe(1);
  });
});

describe('a baseline and the drills a plan left out as not repeated (harness/plan/not-repeated.ts)', () => {
  // b/idle/crash was not run: it is the same drill as a/idle/crash, which ran in its place.
  const notRepeated = [{ key: 'b/idle/crash', sameAs: 'a/idle/crash' }];
  const failing = () => drill('a/idle/crash', 'fail', [['exit-on-eof', 'fail']]);

  it("an entry of the drill left out absorbs the failure of the drill that ran in its place, and only with the plan's list", () => {
    const entries = [entry('b/idle/crash', 'exit-on-eof', 'fail', 'SDK 1')];
    const known = new BaselineIndex(base(entries), notRepeated).apply(failing());
    expect([known.verdict, known.known]).toEqual(['known', [{ check: 'exit-on-eof', reason: 'SDK 1' }]]);
    // Without the list it is another drill's entry: the failure is new.
    const other = new BaselineIndex(base(entries)).apply(failing());
    expect([other.verdict, other.known]).toEqual(['fail', undefined]);
    // Not the other way: an entry of the drill that ran says nothing of another drill that is not the same.
    const unrelated = new BaselineIndex(base(entries), notRepeated).apply(drill('c/idle/crash', 'fail', [['exit-on-eof', 'fail']]));
    expect(unrelated.verdict).toBe('fail');
  });

  it('goes stale when the drill that ran in its place passes, and is judged on nothing when that drill did not run', () => {
    const e = entry('b/idle/crash', 'exit-on-eof');
    const index = new BaselineIndex(base([e]), notRepeated);
    expect(index.stale([drill('a/idle/crash', 'pass', [['exit-on-eof', 'pass']])])).toEqual([e]);
    expect(index.stale([failing()])).toEqual([]);
    expect(index.stale([drill('z/idle/crash', 'pass', [['exit-on-eof', 'pass']])])).toEqual([]);
  });

  it('an update replaces the entries of the drill left out with those of the drill that ran', () => {
    const old = base([entry('b/idle/crash', 'exit-on-eof', 'fail', 'SDK 1'), entry('b/idle/crash', 'no-survivors', 'fail', 'gone')]);
    // The reason people wrote goes with it.
    expect(updatedEntries(old, [failing()], notRepeated)).toEqual({ entries: [entry('a/idle/crash', 'exit-on-eof', 'fail', 'SDK 1')], added: 1, removed: 2 });
    // Without the list (a run before this plan step) the old entries are kept as entries of a drill that did not run.
    expect(updatedEntries(old, [failing()]).entries).toEqual([entry('a/idle/crash', 'exit-on-eof'), ...old.entries]);
  });
});
