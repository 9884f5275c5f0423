import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadReporters, ReporterError } from '../../reports/registry.js';
import { ConfigError, loadScenarios, type KillMode, type KillPoint } from '../config/index.js';
import type { ShardSpec } from '../plan/shard.js';
import { runExitCode } from '../results/flaky.js';
import { runScenarios } from '../run/run-drills.js';

export interface RunCommandOptions {
  point?: KillPoint[];
  mode?: KillMode[];
  only?: string[];
  out: string;
  concurrency?: number;
  reporter?: string[];
  /** `--shard i/n`, parsed by harness/cli/shard-options.ts. */
  shard?: ShardSpec;
  /** `--repeat n`. */
  repeat?: number;
}

const EXIT_CONFIG = 3;
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export async function runCommand(paths: string[], options: RunCommandOptions): Promise<number> {
  let scenarios;
  try {
    scenarios = await loadScenarios(paths);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`crash-drill: ${error.message}\n`);
      return EXIT_CONFIG;
    }
    throw error;
  }
  const known = new Set(scenarios.map((s) => s.id));
  const missing = (options.only ?? []).filter((id) => !known.has(id));
  if (missing.length > 0) {
    process.stderr.write(`crash-drill: --only: no scenario has the id ${missing.map((m) => `"${m}"`).join(', ')}; known: ${[...known].join(', ')}\n`);
    return EXIT_CONFIG;
  }

  const outDir = resolve(options.out);
  let reporters;
  try {
    reporters = await loadReporters(options.reporter ?? [], { outDir, stdout: process.stdout, env: process.env });
  } catch (error) {
    if (error instanceof ReporterError) {
      process.stderr.write(`crash-drill: ${error.message}\n`);
      return EXIT_CONFIG;
    }
    throw error;
  }
  // Evidence of an earlier run in the same folder would be mixed with this one's.
  rmSync(join(outDir, 'evidence'), { recursive: true, force: true });

  // Interrupted: stop starting drills, contain the active ones, write what we have, then exit.
  const controller = new AbortController();
  let caught: string | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (caught) return;
    caught = signal;
    process.stderr.write(`\ncrash-drill: ${signal} received, containing the active drills...\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { results } = await runScenarios(scenarios, {
      points: options.point,
      modes: options.mode,
      only: options.only,
      concurrency: options.concurrency ?? Math.min(4, availableParallelism()),
      signal: controller.signal,
      outDir,
      evidenceDir: join(outDir, 'evidence'),
      reporters,
      shard: options.shard,
      repeat: options.repeat,
    });
    if (caught) return SIGNAL_EXIT[caught] ?? 4;
    // A flaky drill counts as failed (harness/results/flaky.ts).
    return runExitCode(results);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
