import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyEvidence, mergeResults, MergeError, readShardFolder, type ShardInput } from '../../harness/merge/results.js';
import type { DrillResult, RunResults } from '../../harness/results/types.js';
import { failed, passed, runResults, unknown } from '../reports/fixtures.js';
import { tempDir } from '../support/temp-dir.js';

const PLAN = { id: 'plan-a', drills: 4, repeat: 1 };

function drill(base: () => DrillResult, runId: string, index: number, key: string): DrillResult {
  const id = `${runId}.${index}`;
  return { ...base(), id, key, index, evidence: { file: `${id}.jsonl`, head: 'f'.repeat(64), records: 3 } };
}

/** Shard i of 2 of a 4-drill plan, dealt round-robin (0, 2 | 1, 3). */
function shard(i: 1 | 2, extra: Partial<RunResults> = {}): ShardInput {
  const runId = `cd-run${i}`;
  const drills =
    i === 1
      ? [drill(passed, runId, 0, 'a/idle/crash'), drill(unknown, runId, 2, 'b/sent/crash')]
      : [drill(failed, runId, 1, 'a/idle/close'), drill(passed, runId, 3, 'b/sent/close')];
  return {
    dir: `/reports/shard-${i}`,
    results: runResults(drills, {
      runId,
      startedAt: `2026-01-01T00:00:0${i}.000Z`,
      finishedAt: `2026-01-01T00:00:1${i}.000Z`,
      shard: { index: i, total: 2 },
      plan: PLAN,
      flaky: [],
      ...extra,
    }),
  };
}

function refusal(inputs: ShardInput[]): string {
  try {
    mergeResults(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(MergeError);
    expect((error as MergeError).code).toBe('CRASH_DRILL_MERGE');
    return (error as Error).message;
  }
  throw new Error('expected the merge to be refused');
}

describe('mergeResults', () => {
  it('combines shards in plan order, recomputes the summary, and whichever order the folders come in', () => {
    for (const inputs of [
      [shard(1), shard(2)],
      [shard(2), shard(1)],
    ]) {
      const merged = mergeResults(inputs);
      expect(merged.drills.map((d) => d.key)).toEqual(['a/idle/crash', 'a/idle/close', 'b/sent/crash', 'b/sent/close']);
      expect(merged.summary).toEqual({ pass: 2, fail: 1, unknown: 1, error: 0 });
      expect(merged.shard).toBeUndefined();
      expect(merged.plan).toEqual(PLAN);
      expect(merged.flaky).toEqual([]);
      expect(merged.startedAt).toBe('2026-01-01T00:00:01.000Z');
      expect(merged.finishedAt).toBe('2026-01-01T00:00:12.000Z');
      expect(merged.mergedFrom).toEqual([
        { runId: 'cd-run1', shard: { index: 1, total: 2 } },
        { runId: 'cd-run2', shard: { index: 2, total: 2 } },
      ]);
      expect(merged.runId).toBe('merge-cd-run1+cd-run2');
    }
  });

  it('keeps every attempt of a repeated drill and finds flakiness across shards', () => {
    const plan = { id: 'plan-r', drills: 1, repeat: 2 };
    const a = { ...drill(passed, 'cd-x', 0, 'a/idle/crash'), attempt: 1 };
    const b = { ...drill(failed, 'cd-y', 0, 'a/idle/crash'), attempt: 2 };
    const merged = mergeResults([
      { dir: '/x', results: runResults([a], { runId: 'cd-x', shard: { index: 1, total: 2 }, plan }) },
      { dir: '/y', results: runResults([b], { runId: 'cd-y', shard: { index: 2, total: 2 }, plan }) },
    ]);
    expect(merged.drills.map((d) => d.attempt)).toEqual([1, 2]);
    expect(merged.flaky).toEqual([{ key: 'a/idle/crash', verdicts: ['pass', 'fail'] }]);
  });

  it('is interrupted when any shard was', () => {
    expect(mergeResults([shard(1), shard(2, { interrupted: true })]).interrupted).toBe(true);
    expect(mergeResults([shard(1), shard(2)]).interrupted).toBe(false);
  });

  it('refuses results of different harness versions', () => {
    const other = shard(2, { harness: { name: 'mcp-crash-drill', version: '9.9.9' } });
    expect(refusal([shard(1), other])).toMatch(/different harness versions: .*0\.1\.0.*9\.9\.9/);
  });

  it('refuses results of different plans, or without a plan', () => {
    expect(refusal([shard(1), shard(2, { plan: { id: 'plan-b', drills: 5, repeat: 1 } })])).toMatch(/different plans/);
    expect(refusal([shard(1), shard(2, { plan: undefined })])).toMatch(/names no plan/);
  });

  it('refuses a missing shard, naming it', () => {
    expect(refusal([shard(1)])).toBe('missing shard 2/2: without it some drills of the plan would go unjudged');
  });

  it('refuses a shard given twice and shards of different counts', () => {
    expect(refusal([shard(1), { ...shard(1), dir: '/copy' }, shard(2)])).toMatch(/shard 1\/2 given twice: \/reports\/shard-1 and \/copy/);
    expect(refusal([shard(1), shard(2, { shard: { index: 2, total: 3 } })])).toMatch(/different shard counts/);
  });

  it('refuses overlapping shards (the same drill in two inputs)', () => {
    const overlapping = shard(2);
    overlapping.results.drills.push(drill(passed, 'cd-run2', 0, 'a/idle/crash'));
    expect(refusal([shard(1), overlapping])).toMatch(/drill a\/idle\/crash is in both \/reports\/shard-1 and \/reports\/shard-2/);
  });

  it('refuses nothing to merge', () => {
    expect(refusal([])).toMatch(/nothing to merge/);
  });
});

describe('readShardFolder and copyEvidence', () => {
  it('reads results.json, refuses a folder without one, and copies every evidence log', () => {
    const root = tempDir('crash-drill-merge-');
    const inputs = [shard(1), shard(2)].map((s, i) => {
      const dir = join(root, `s${i + 1}`);
      mkdirSync(join(dir, 'evidence'), { recursive: true });
      writeFileSync(join(dir, 'results.json'), JSON.stringify(s.results));
      for (const d of s.results.drills) writeFileSync(join(dir, 'evidence', d.evidence!.file), `{"drill":"${d.id}"}\n`);
      return readShardFolder(dir);
    });
    expect(inputs[1].results.runId).toBe('cd-run2');
    expect(() => readShardFolder(join(root, 'nope'))).toThrow(/no results.json/);
    writeFileSync(join(root, 'results.json'), '{not json');
    expect(() => readShardFolder(root)).toThrow(MergeError);

    const out = join(root, 'merged');
    expect(copyEvidence(inputs, out)).toEqual([]);
    for (const d of [...inputs[0].results.drills, ...inputs[1].results.drills]) {
      expect(readFileSync(join(out, 'evidence', d.evidence!.file), 'utf8')).toBe(`{"drill":"${d.id}"}\n`);
    }
  });

  it('reports the evidence logs it cannot find instead of failing', () => {
    const root = tempDir('crash-drill-merge-');
    const s = shard(1);
    const out = join(root, 'merged');
    const missing = copyEvidence([{ ...s, dir: root }], out);
    expect(missing).toEqual(s.results.drills.map((d) => join(root, 'evidence', d.evidence!.file)));
    expect(existsSync(join(out, 'evidence'))).toBe(true);
  });
});
