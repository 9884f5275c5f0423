import { availableParallelism } from 'node:os';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadReporters, ReporterError } from '../../reports/registry.js';
import { subjectFromCommandLine } from './command-line.js';
import { ConfigError, loadScenarios, type KillMode, type KillPoint, type Scenario } from '../config/index.js';
import { findConfigFile, loadConfigFile } from '../config/config-file.js';
import type { DrillConfig } from '../index.js';
import type { Reporter } from '../../reports/types.js';
import type { ShardSpec } from '../plan/shard.js';
import { runExitCode } from '../results/flaky.js';
import { runScenarios } from '../run/run-drills.js';

export interface RunCommandOptions {
  point?: KillPoint[];
  mode?: KillMode[];
  only?: string[];
  out?: string;
  concurrency?: number;
  /** A config file; default: crash-drill.config.{ts,mts,js,mjs} in the working folder. */
  config?: string;
  reporter?: string[];
  /** `--shard i/n`, parsed by harness/cli/shard-options.ts. */
  shard?: ShardSpec;
  /** `--repeat n`. */
  repeat?: number;
  /** `--subject <command line>`, repeatable: drill these servers instead of the scenarios' own. */
  subject?: string[];
}

const EXIT_CONFIG = 3;
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export async function runCommand(paths: string[], options: RunCommandOptions): Promise<number> {
  let scenarios: Scenario[];
  let config: DrillConfig | undefined;
  try {
    // The CLI and the API read the same config file; flags and paths on the command line win.
    const configFile = options.config ? resolve(options.config) : findConfigFile(process.cwd());
    if (configFile) config = await loadConfigFile(configFile);
    const entries = paths.length > 0 ? paths : (config?.scenarios ?? ['scenarios']);
    const files = entries.filter((s): s is string => typeof s === 'string');
    const inline = entries.filter((s): s is Scenario => typeof s !== 'string');
    scenarios = [...(files.length > 0 ? await loadScenarios(files) : []), ...inline];
    const ids = scenarios.map((s) => s.id);
    const twice = ids.find((id, i) => ids.indexOf(id) !== i);
    if (twice) throw new ConfigError({ file: configFile ?? undefined, field: 'scenarios', message: `expected unique scenario ids, got "${twice}" both in a file and inline` });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`crash-drill: ${error.message}\n`);
      return EXIT_CONFIG;
    }
    throw error;
  }
  if (options.subject?.length) {
    let subjects;
    try {
      subjects = options.subject.map((line) => subjectFromCommandLine(line, process.cwd()));
    } catch (error) {
      process.stderr.write(`crash-drill: --subject: ${error instanceof Error ? error.message : String(error)}\n`);
      return EXIT_CONFIG;
    }
    const names = subjects.map((s) => s.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) {
      process.stderr.write(`crash-drill: --subject: two subjects are both named "${dup}"; they must differ to be compared\n`);
      return EXIT_CONFIG;
    }
    scenarios = scenarios.map((s) => ({ ...s, subject: subjects[0], subjects }));
  }
  const known = new Set(scenarios.map((s) => s.id));
  const only = options.only ?? config?.only;
  const missing = (only ?? []).filter((id) => !known.has(id));
  if (missing.length > 0) {
    process.stderr.write(`crash-drill: --only: no scenario has the id ${missing.map((m) => `"${m}"`).join(', ')}; known: ${[...known].join(', ')}\n`);
    return EXIT_CONFIG;
  }

  const outDir = resolve(options.out ?? config?.out ?? 'crash-drill-report');
  const configReporters = config?.reporters ?? [];
  const reporterNames = options.reporter ?? configReporters.filter((r): r is string => typeof r === 'string');
  let reporters: Reporter[];
  try {
    reporters = [
      ...(await loadReporters(reporterNames, { outDir, stdout: process.stdout, env: process.env })),
      ...configReporters.filter((r): r is Reporter => typeof r !== 'string'),
    ];
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
      points: options.point ?? config?.points,
      modes: options.mode ?? config?.modes,
      only,
      concurrency: options.concurrency ?? config?.concurrency ?? Math.min(4, availableParallelism()),
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
