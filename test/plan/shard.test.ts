import { describe, expect, it } from 'vitest';
import { attemptIndex, parseShard, planFingerprint, repeatDrills, shardDrills, ShardError } from '../../harness/plan/shard.js';

const plan = (n: number, start = 0) => Array.from({ length: n }, (_, i) => ({ index: start + i, key: `s/p${i}/crash` }));

describe('parseShard', () => {
  it('accepts i/n with 1 <= i <= n', () => {
    expect(parseShard('1/3')).toEqual({ index: 1, total: 3 });
    expect(parseShard('3/3')).toEqual({ index: 3, total: 3 });
    expect(parseShard(' 2 / 5 ')).toEqual({ index: 2, total: 5 });
    expect(parseShard('1/1')).toEqual({ index: 1, total: 1 });
  });

  it.each(['0/3', '4/3', '1/0', '0/0', '-1/3', '1.5/3', 'a/b', '1', '1/3/4', ''])('refuses "%s" with a typed error', (text) => {
    expect(() => parseShard(text)).toThrow(ShardError);
    try {
      parseShard(text);
    } catch (error) {
      expect((error as ShardError).code).toBe('CRASH_DRILL_SHARD');
      expect((error as Error).message).toContain('--shard');
    }
  });
});

describe('shardDrills', () => {
  it('puts every drill in exactly one shard, for every shard count', () => {
    for (const n of [1, 2, 3, 4, 7, 13]) {
      const drills = plan(10);
      const shards = Array.from({ length: n }, (_, i) => shardDrills(drills, { index: i + 1, total: n }));
      const all = shards
        .flat()
        .map((d) => d.index)
        .sort((a, b) => a - b);
      expect(all).toEqual(drills.map((d) => d.index));
      // Round-robin keeps the shards within one drill of each other.
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('is deterministic and keeps plan order, whatever the input order', () => {
    const drills = plan(7);
    const a = shardDrills(drills, { index: 2, total: 3 });
    const b = shardDrills([...drills].reverse(), { index: 2, total: 3 });
    expect(a.map((d) => d.index)).toEqual([1, 4]);
    expect(b).toEqual(a);
  });

  it('deals the filtered plan, so gaps in the plan index do not empty a shard', () => {
    // Plan indexes 0, 3, 6, 9 (a --point filter kept every third drill): index mod 3 would put all in shard 1.
    const filtered = [0, 3, 6, 9].map((index) => ({ index }));
    expect(shardDrills(filtered, { index: 1, total: 3 }).map((d) => d.index)).toEqual([0, 9]);
    expect(shardDrills(filtered, { index: 2, total: 3 }).map((d) => d.index)).toEqual([3]);
    expect(shardDrills(filtered, { index: 3, total: 3 }).map((d) => d.index)).toEqual([6]);
  });

  it('without a shard, or with 1/1, keeps the whole plan', () => {
    expect(shardDrills(plan(3), undefined)).toEqual(plan(3));
    expect(shardDrills(plan(3), { index: 1, total: 1 })).toEqual(plan(3));
  });

  it('gives an empty shard when there are more shards than drills', () => {
    expect(shardDrills(plan(2), { index: 3, total: 3 })).toEqual([]);
  });
});

describe('repeatDrills and attemptIndex', () => {
  it('repeats each drill n times, copies next to each other', () => {
    const out = repeatDrills(['a', 'b'], 3);
    expect(out).toEqual([
      { drill: 'a', attempt: 1 },
      { drill: 'a', attempt: 2 },
      { drill: 'a', attempt: 3 },
      { drill: 'b', attempt: 1 },
      { drill: 'b', attempt: 2 },
      { drill: 'b', attempt: 3 },
    ]);
    expect(repeatDrills(['a'])).toEqual([{ drill: 'a', attempt: 1 }]);
    expect(() => repeatDrills(['a'], 0)).toThrow(ShardError);
  });

  it('gives every attempt of every drill a distinct index, attempt 1 keeping its own', () => {
    const size = 5;
    const seen = new Set<number>();
    for (let index = 0; index < size; index++) {
      expect(attemptIndex(index, 1, size)).toBe(index);
      for (let attempt = 1; attempt <= 4; attempt++) seen.add(attemptIndex(index, attempt, size));
    }
    expect(seen.size).toBe(size * 4);
  });
});

describe('planFingerprint', () => {
  it('is the same for the same keys and repeat, and differs otherwise', () => {
    const keys = ['a/idle/crash', 'a/idle/close'];
    expect(planFingerprint(keys, 1)).toBe(planFingerprint([...keys], 1));
    expect(planFingerprint(keys, 1)).not.toBe(planFingerprint(keys, 2));
    expect(planFingerprint(keys, 1)).not.toBe(planFingerprint([...keys].reverse(), 1));
    expect(planFingerprint(keys, 1)).not.toBe(planFingerprint(keys.slice(1), 1));
  });
});
