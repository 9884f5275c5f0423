/** `crash-drill merge <folders...> --out <dir>`: the report folders of a plan's shards (`run --shard i/n`) made one report. */
import { resolve } from 'node:path';
import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { commandExit, UsageError } from '../util/errors.js';
import { commaList } from './run-flags.js';

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
    .option('--reporter <names>', 'reporters, as for run (json is always on)', commaList)
    .action(async (folders: string[], options: MergeCommandOptions) => {
      process.exitCode = await mergeCommand(folders, options);
    });
}
