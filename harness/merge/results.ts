/**
 * `crash-drill merge`: one plan's shard folders as the results.json an unsharded run would write,
 * evidence copied. Refuses what would make the verdict a lie: another harness version or plan, a
 * shard twice or missing, a drill in two inputs.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findFlaky } from '../results/flaky.js';
import type { DrillResult, RunResults } from '../results/types.js';
import { withMergedExpectation } from './expectation.js';
import { UserError } from '../util/errors.js';
import { summarize } from '../results/summary.js';

export class MergeError extends UserError {
  readonly code = 'CRASH_DRILL_MERGE';
}

export interface ShardInput {
  /** The report folder (holding results.json and evidence/). */
  dir: string;
  results: RunResults;
}

/** Reads `<dir>/results.json`; a missing or unreadable file is a MergeError naming the folder. */
export function readShardFolder(dir: string): ShardInput {
  const file = join(dir, 'results.json');
  if (!existsSync(file)) throw new MergeError(`${dir}: no results.json (is this a crash-drill report folder?)`);
  let results: RunResults;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')) as RunResults;
  } catch (error) {
    throw new MergeError(`${file}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (results?.version !== 1 || !Array.isArray(results.drills)) throw new MergeError(`${file}: not a results.json of version 1`);
  return { dir, results };
}

const shardOf = (r: RunResults) => r.shard ?? { index: 1, total: 1 };
const attemptKey = (d: DrillResult) => `${d.key}#${d.attempt ?? 1}`;

/** Pure: the merged results, or a MergeError with the reason. */
export function mergeResults(inputs: readonly ShardInput[]): RunResults {
  if (inputs.length === 0) throw new MergeError('nothing to merge: name at least one report folder');
  const [first] = inputs;
  for (const { dir, results } of inputs) {
    const a = first.results.harness;
    const b = results.harness;
    if (a.name !== b.name || a.version !== b.version) {
      throw new MergeError(
        `different harness versions: ${first.dir} has ${a.name} ${a.version}, ${dir} has ${b.name} ${b.version}; re-run every shard with the same version`,
      );
    }
    if (!results.plan) throw new MergeError(`${dir}: results.json names no plan, so it cannot be matched with other shards`);
    if (results.plan.id !== first.results.plan?.id) {
      throw new MergeError(
        `different plans: ${first.dir} ran plan ${first.results.plan?.id} (${first.results.plan?.drills} drills × ${first.results.plan?.repeat}), ${dir} ran plan ${results.plan.id} (${results.plan.drills} drills × ${results.plan.repeat}); use the same scenario files, filters and --repeat on every shard`,
      );
    }
    if (shardOf(results).total !== shardOf(first.results).total) {
      throw new MergeError(`different shard counts: ${first.dir} is shard ${fmt(shardOf(first.results))}, ${dir} is shard ${fmt(shardOf(results))}`);
    }
  }
  const total = shardOf(first.results).total;
  const seenShard = new Map<number, string>();
  for (const { dir, results } of inputs) {
    const { index } = shardOf(results);
    const other = seenShard.get(index);
    if (other !== undefined) throw new MergeError(`shard ${index}/${total} given twice: ${other} and ${dir}`);
    seenShard.set(index, dir);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seenShard.has(i));
  if (missing.length > 0) {
    throw new MergeError(
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')}: without ${missing.length > 1 ? 'them' : 'it'} some drills of the plan would go unjudged`,
    );
  }

  const seenDrill = new Map<string, string>();
  const drills: DrillResult[] = [];
  for (const { dir, results } of inputs) {
    for (const drill of results.drills) {
      const id = attemptKey(drill);
      const other = seenDrill.get(id);
      if (other !== undefined)
        throw new MergeError(`drill ${drill.key}${drill.attempt ? ` attempt ${drill.attempt}` : ''} is in both ${other} and ${dir}: the shards overlap`);
      seenDrill.set(id, dir);
      drills.push(drill);
    }
  }
  // Plan order: the drill's index in the full plan, then its attempt.
  drills.sort((a, b) => (a.index ?? 0) - (b.index ?? 0) || (a.attempt ?? 1) - (b.attempt ?? 1));

  const ordered = [...inputs].sort((a, b) => shardOf(a.results).index - shardOf(b.results).index);
  const times = (pick: (r: RunResults) => string) => inputs.map((i) => pick(i.results)).sort();
  const merged: RunResults = {
    version: 1,
    harness: first.results.harness,
    runId: `merge-${ordered.map((i) => i.results.runId).join('+')}`,
    startedAt: times((r) => r.startedAt)[0],
    finishedAt: times((r) => r.finishedAt).at(-1)!,
    interrupted: inputs.some((i) => i.results.interrupted),
    summary: summarize(drills),
    stale: inputs.flatMap((i) => i.results.stale ?? []),
    drills,
    plan: first.results.plan,
    flaky: findFlaky(drills),
    // The same in every shard: the plan id covers it (harness/plan/shard.ts planFingerprint).
    ...(first.results.notRepeated ? { notRepeated: first.results.notRepeated } : {}),
    // One harness version (checked above): its requirements are the same in every shard.
    ...(first.results.requirements ? { requirements: first.results.requirements } : {}),
    ...mergedBaseline(inputs.map((i) => i.results)),
    mergedFrom: ordered.map((i) => ({ runId: i.results.runId, shard: i.results.shard ?? null })),
  };
  // Each server's cleanup expectation, judged again on every shard's drills (harness/merge/expectation.ts).
  return withMergedExpectation(
    merged,
    inputs.map((i) => i.results),
  );
}

/**
 * The shards' baseline sections as one: each shard judged staleness on its own drills only
 * (harness/baseline/apply.ts), so the merged stale entries are their union.
 */
function mergedBaseline(runs: readonly RunResults[]): Pick<RunResults, 'baseline'> {
  const withBaseline = runs.filter((r) => r.baseline);
  if (withBaseline.length === 0) return {};
  const first = withBaseline[0].baseline!;
  const stale = new Map(withBaseline.flatMap((r) => r.baseline!.stale).map((e) => [`${e.drill}\u0000${e.check ?? ''}`, e]));
  return { baseline: { file: first.file, entries: first.entries, known: withBaseline.reduce((n, r) => n + r.baseline!.known, 0), stale: [...stale.values()] } };
}

/** Copies each drill's evidence log into `<outDir>/evidence/` (drill ids carry their run id); returns the ones not found. */
export function copyEvidence(inputs: readonly ShardInput[], outDir: string): string[] {
  const target = join(outDir, 'evidence');
  mkdirSync(target, { recursive: true });
  const missing: string[] = [];
  for (const { dir, results } of inputs) {
    for (const drill of results.drills) {
      if (!drill.evidence) continue;
      const from = join(dir, 'evidence', drill.evidence.file);
      const to = join(target, drill.evidence.file);
      if (!existsSync(from)) missing.push(from);
      else if (resolve(from) !== resolve(to)) copyFileSync(from, to);
    }
  }
  return missing;
}

function fmt(s: { index: number; total: number }): string {
  return `${s.index}/${s.total}`;
}
