/**
 * The public entry of mcp-crash-drill (the package's `exports`). Everything else is internal.
 *
 *   import { runDrills, defineScenario } from 'mcp-crash-drill';
 *   const { results } = await runDrills({ scenarios: ['scenarios'], concurrency: 2 });
 */
import type { ClientKind } from './drill/client/drill-client.js';
import type { Reporter } from '../reports/types.js';
import { ConfigError, type KillMode, type KillPoint, type ProtocolChoice, type Scenario } from './config/index.js';
import { findConfigFile, loadConfigFile } from './config/config-file.js';
import type { DrillEvidence } from './evidence/types.js';
import type { RunResults } from './results/types.js';
import type { ShardSpec } from './plan/shard.js';
import { startRun } from './run/start-run.js';

export interface DrillConfig {
  /** Scenario files or folders, or scenarios already loaded. */
  scenarios: Array<string | Scenario>;
  points?: KillPoint[];
  modes?: KillMode[];
  /** Overrides every scenario's protocol era: auto, 2025-11-25 or 2026-07-28. */
  protocol?: ProtocolChoice;
  /** Scenario ids to keep. */
  only?: string[];
  /** Drills in flight at most; without it, the phase-aware schedule (harness/run/scheduler.ts). */
  concurrency?: number;
  /** The drill client: 'process' (its own Node process) or 'inprocess' (in the harness, over the server's pipes). */
  client?: ClientKind;
  /** Report folder: results.json, evidence/ and what the reporters write. Default: no files. */
  out?: string;
  /** Reporter names or module paths, or reporter objects. */
  reporters?: Array<string | Reporter>;
  signal?: AbortSignal;
  /** Run only shard `index` of `total` of the plan (1-based), as `--shard index/total`. */
  shard?: ShardSpec;
  /** Run every drill this many times (`--repeat`); a drill whose verdicts differ is flaky. */
  repeat?: number;
  /** A baseline file (`--baseline`): the failures it lists are known and do not fail the run (harness/baseline). */
  baseline?: string;
  /** For `crash-drill orphans`: extra server patterns (regular expressions) besides the defaults. */
  orphans?: { match?: string[] };
}

/** Identity function for types: `defineConfig({...})` in a config file; validation happens at load. */
export function defineConfig<T extends DrillConfig>(config: T): T {
  return config;
}

/**
 * Runs the drills and returns what the CLI writes to results.json, plus every drill's evidence.
 * Without a config, it reads the same config file the CLI would (crash-drill.config.* here).
 * The same run path as `crash-drill run` (harness/run/start-run.ts): duplicate ids and `only`
 * are checked, the report folder's old evidence is wiped, shard and repeat apply, concurrency
 * defaults to the cores (at most 4), and named reporters need `out`.
 */
export async function runDrills(given?: DrillConfig): Promise<{ results: RunResults; evidence: DrillEvidence[] }> {
  const file = given ? null : findConfigFile(process.cwd());
  if (!given && !file) throw new ConfigError({ message: `runDrills(): no config given and no crash-drill.config.{ts,mts,js,mjs} in ${process.cwd()}` });
  const config = given ?? (await loadConfigFile(file!));
  return startRun({ ...config, configFile: file ?? undefined });
}

export { defineScenario, loadScenarios, parseScenario, ConfigError, KILL_MODES, KILL_POINTS } from './config/index.js';
/** The error bases: `error instanceof UserError` is a mistake in what was given (a config, a file, a variable), `error.code` says which. */
export { CrashDrillError, EnvVarError, InternalError, UserError } from './errors.js';
export { findConfigFile, loadConfigFile } from './config/config-file.js';
export type { KillMode, KillPoint, Scenario, ScenarioInput } from './config/index.js';
export type { DrillEvidence, EvidenceEvent } from './evidence/types.js';
export { readEvidenceLog } from './evidence/log.js';
export { judge } from './results/judge.js';
export type { DrillList, DrillResult, ExitInfo, IncidentRecord, RunReport, RunResults, RunSummary } from './results/types.js';
/** results.json's `expectation`: each server's cleanup expectation, judged (harness/expectation/). */
export type { ExpectationResults, ServerExpectation, StatementId, StatementResult } from './results/types.js';
export type { CheckId, CheckResult, Verdict } from './checks/index.js';
export { loadReporter, loadReporters, BUILTIN_REPORTERS, type ReporterOptions } from '../reports/registry.js';
export type { Reporter } from '../reports/types.js';
