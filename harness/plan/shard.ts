/**
 * Splitting a plan across machines (`--shard i/n`) and repeating it (`--repeat n`). Drills are
 * dealt round-robin in plan order, so every drill is in exactly one shard and each scenario's
 * slow drills spread over the shards (Playwright splits by file; drills are cheaper units).
 */
import { createHash } from 'node:crypto';
import type { PlannedDrill } from './types.js';
import { UserError } from '../util/errors.js';

export interface ShardSpec {
  index: number;
  total: number;
}

export class ShardError extends UserError {
  readonly code = 'CRASH_DRILL_SHARD';
}

/** `i/n` with 1 ≤ i ≤ n, whole numbers; anything else is a usage error. */
export function parseShard(text: string): ShardSpec {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ShardError(`--shard: expected i/n such as 1/3, got "${text}"`);
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1) throw new ShardError(`--shard: the number of shards must be at least 1, got "${text}"`);
  if (index < 1 || index > total) throw new ShardError(`--shard: the shard must be between 1 and ${total}, got "${text}"`);
  return { index, total };
}

export function shardDrills<T extends Pick<PlannedDrill, 'index'>>(drills: readonly T[], shard: ShardSpec | undefined): T[] {
  if (!shard || shard.total === 1) return [...drills];
  const ordered = [...drills].sort((a, b) => a.index - b.index);
  return ordered.filter((_, position) => position % shard.total === shard.index - 1);
}

/** One planned execution of a drill: the drill, which attempt this is, and its own id index. */
export interface DrillAttempt<T> {
  drill: T;
  attempt: number;
}

/** Each drill `repeat` times, the copies of one drill next to each other. */
export function repeatDrills<T>(drills: readonly T[], repeat = 1): DrillAttempt<T>[] {
  if (!Number.isInteger(repeat) || repeat < 1) throw new ShardError(`--repeat: expected a positive whole number, got ${repeat}`);
  return drills.flatMap((drill) => Array.from({ length: repeat }, (_, i) => ({ drill, attempt: i + 1 })));
}

/** The index a repeated attempt runs under, k + (a − 1) × planSize, so each attempt gets its own drill id (harness/registry/runs.ts). */
export function attemptIndex(index: number, attempt: number, planSize: number): number {
  return index + (attempt - 1) * planSize;
}

/** What every shard of one plan shares, hashed (drill keys after filters, repeat count, not-repeated drills): `merge` refuses others. */
export function planFingerprint(keys: readonly string[], repeat = 1, notRepeated: readonly { key: string; sameAs: string }[] = []): string {
  const plan = notRepeated.length > 0 ? { keys, repeat, notRepeated: notRepeated.map(({ key, sameAs }) => ({ key, sameAs })) } : { keys, repeat };
  return createHash('sha256').update(JSON.stringify(plan), 'utf8').digest('hex').slice(0, 16);
}
