/** `run --shard i/n --repeat n` and `crash-drill merge <folders...> --out <dir>`, wired in by main.ts. */
import { resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { parseShard, ShardError } from '../plan/shard.js';
import { commandExit, UsageError } from '../util/errors.js';

export function shardArg(value: string) {
  try {
    return parseShard(value);
  } catch (error) {
    // Commander turns InvalidArgumentError into a usage error; main.ts exits 3 on those.
    if (error instanceof ShardError) throw new InvalidArgumentError(error.message.replace(/^--shard: /, ''));
    throw error;
  }
}

function repeatArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}

/** Adds `--shard <i/n>` and `--repeat <n>` to the run command (options reach runCommand as `shard` and `repeat`). */
export function addShardOptions(command: Command): Command {
  return command
    .option('--shard <i/n>', 'run only shard i of n (drills dealt round-robin in plan order); merge the shards with `crash-drill merge`', shardArg)
    .option('--repeat <n>', 'run every drill n times; a drill whose verdicts differ is reported as flaky and counts as failed', repeatArg);
}

export interface MergeCommandOptions {
  out: string;
  reporter?: string[];
}

/** `crash-drill merge`: exit 3 with the reason when the folders cannot be merged, else as `run`. */
export async function mergeCommand(folders: string[], options: MergeCommandOptions): Promise<number> {
  // Loaded when the command runs, not when the CLI starts (harness/cli/main.ts).
  const [{ loadReporters }, { runExitCode }, { copyEvidence, mergeResults, readShardFolder }] = await Promise.all([
    import('../../reports/load-reporters.js'),
    import('../results/flaky.js'),
    import('../merge/results.js'),
  ]);
  return commandExit(process.stderr, 'merge', async () => {
    const outDir = resolve(options.out);
    const dirs = folders.map((f) => resolve(f));
    if (dirs.includes(outDir)) throw new UsageError(`--out ${options.out} is one of the folders to merge; choose a new folder`);
    const inputs = dirs.map(readShardFolder);
    const merged = mergeResults(inputs);
    const reporters = await loadReporters(options.reporter ?? [], { outDir, stdout: process.stdout, env: process.env });
    // Like `run`: evidence of an earlier report in the same folder would be mixed with this one's.
    rmSync(resolve(outDir, 'evidence'), { recursive: true, force: true });
    const absent = copyEvidence(inputs, outDir);
    for (const file of absent) process.stderr.write(`crash-drill: merge: evidence log not found, not copied: ${file}\n`);

    const total = merged.drills.length;
    for (const r of reporters) await r.onRunStart?.({ runId: merged.runId, total, concurrency: 1, outDir });
    for (const [i, drill] of merged.drills.entries()) {
      for (const r of reporters) r.onDrillEnd?.(drill, { done: i + 1, total });
    }
    for (const r of reporters) await r.onRunEnd?.(merged);
    return runExitCode(merged);
  });
}

/** Adds `crash-drill merge <folders...> --out <dir> [--reporter ...]` to the program. */
export function registerMergeCommand(program: Command): void {
  program
    .command('merge')
    .description('merge the report folders of the shards of one plan into one report')
    .argument('<folders...>', 'report folders written by `run --shard i/n` (each holding results.json and evidence/)')
    .option('--out <dir>', 'merged report folder', 'crash-drill-report')
    .option('--reporter <names>', 'reporters, as for run (json is always on)', (v: string, p: string[] = []) => [
      ...p,
      ...v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ])
    .action(async (folders: string[], options: MergeCommandOptions) => {
      process.exitCode = await mergeCommand(folders, options);
    });
}
