/**
 * The public entry of mcp-crash-drill (the package's `exports`). Everything else is internal.
 *
 *   import { runDrills, defineScenario } from 'mcp-crash-drill';
 *   const { results } = await runDrills({ scenarios: ['scenarios'], concurrency: 2 });
 */
import { resolve, join } from 'node:path';
import { loadReporters } from '../reports/registry.js';
import type { Reporter } from '../reports/types.js';
import { ConfigError, loadScenarios, type KillMode, type KillPoint, type ProtocolChoice, type Scenario } from './config/index.js';
import { findConfigFile, loadConfigFile } from './config/config-file.js';
import type { DrillEvidence } from './evidence/types.js';
import type { RunResults } from './results/types.js';
import { runScenarios } from './run/run-drills.js';

export interface DrillConfig {
  /** Scenario files or folders, or scenarios already loaded. */
  scenarios: Array<string | Scenario>;
  points?: KillPoint[];
  modes?: KillMode[];
  /** Overrides every scenario's protocol era: auto, 2025-11-25 or 2026-07-28. */
  protocol?: ProtocolChoice;
  /** Scenario ids to keep. */
  only?: string[];
  concurrency?: number;
  /** Report folder: results.json, evidence/ and what the reporters write. Default: no files. */
  out?: string;
  /** Reporter names or module paths, or reporter objects. */
  reporters?: Array<string | Reporter>;
  signal?: AbortSignal;
}

/** Identity function for types: `defineConfig({...})` in a config file; validation happens at load. */
export function defineConfig<T extends DrillConfig>(config: T): T {
  return config;
}

/**
 * Runs the drills and returns what the CLI writes to results.json, plus every drill's evidence.
 * Without a config, it reads the same config file the CLI would (crash-drill.config.* here).
 */
export async function runDrills(given?: DrillConfig): Promise<{ results: RunResults; evidence: DrillEvidence[] }> {
  const file = given ? null : findConfigFile(process.cwd());
  if (!given && !file) throw new ConfigError({ message: `runDrills(): no config given and no crash-drill.config.{ts,mts,js,mjs} in ${process.cwd()}` });
  const config = given ?? (await loadConfigFile(file!));
  const paths = config.scenarios.filter((s): s is string => typeof s === 'string');
  const loaded = paths.length > 0 ? await loadScenarios(paths) : [];
  const scenarios = [...loaded, ...config.scenarios.filter((s): s is Scenario => typeof s !== 'string')];
  const outDir = config.out ? resolve(config.out) : undefined;
  const named = (config.reporters ?? []).filter((r): r is string => typeof r === 'string');
  const objects = (config.reporters ?? []).filter((r): r is Reporter => typeof r !== 'string');
  const reporters = outDir ? [...(await loadReporters(named, { outDir })), ...objects] : objects;
  return runScenarios(scenarios, {
    points: config.points,
    modes: config.modes,
    protocol: config.protocol,
    only: config.only,
    concurrency: config.concurrency,
    signal: config.signal,
    outDir,
    evidenceDir: outDir ? join(outDir, 'evidence') : undefined,
    reporters,
  });
}

export { defineScenario, loadScenarios, parseScenario, ConfigError, KILL_MODES, KILL_POINTS } from './config/index.js';
export { findConfigFile, loadConfigFile } from './config/config-file.js';
export type { KillMode, KillPoint, Scenario, ScenarioInput } from './config/index.js';
export type { DrillEvidence, EvidenceEvent } from './evidence/types.js';
export { readEvidenceLog } from './evidence/log.js';
export { judge } from './results/judge.js';
export type { DrillResult, ExitInfo, IncidentRecord, RunResults, RunSummary } from './results/types.js';
export type { CheckId, CheckResult, Verdict } from './checks/index.js';
export { loadReporter, loadReporters, BUILTIN_REPORTERS, type ReporterOptions } from '../reports/registry.js';
export type { Reporter } from '../reports/types.js';
