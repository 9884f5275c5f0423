/**
 * The public entry of mcp-crash-drill (the package's `exports`). Everything else is internal.
 * It only re-exports (vitest's `src/public/*`): no module imports it, so it closes no circle.
 *
 *   import { runDrills, defineScenario } from 'mcp-crash-drill';
 *   const { results } = await runDrills({ scenarios: ['scenarios'], concurrency: 2 });
 *   const all = [...results.drills, ...notRepeatedCopies(results.drills, results.notRepeated)];
 */
export { defineConfig, type DrillConfig } from './run/run-plan.js';
export { runDrills } from './run/run-drills.js';
export { defineScenario, loadScenarios, parseScenario, ConfigError, KILL_MODES, KILL_POINTS } from './config/index.js';
/** The error bases: `error instanceof UserError` is a mistake in what was given (a config, a file, a variable), `error.code` says which. */
export { CrashDrillError, EnvVarError, InternalError, NoDrillsError, UserError } from './util/errors.js';
export { findConfigFile, loadConfigFile } from './run/config-file.js';
export type { KillMode, KillPoint, Scenario, ScenarioInput } from './config/index.js';
export type { DrillEvidence, EvidenceEvent } from './evidence/types.js';
export { readEvidenceLog } from './evidence/log.js';
export { judge } from './results/judge.js';
export type { DrillList, DrillResult, ExitInfo, IncidentRecord, RunReport, RunResults, RunSummary } from './results/types.js';
/**
 * `results.drills` holds the drills that ran; `results.notRepeated` the drills left out as the
 * same drill as one that ran (under client profiles with the same facts, of other scenarios at
 * idle). notRepeatedCopies gives each as a copy of that drill's result under its own key, scenario
 * and profile, with `sameAs`.
 */
export { notRepeatedCopies } from './results/constants.js';
export type { NotRepeatedDrill } from './results/types.js';
/** results.json's `expectation`: each server's cleanup expectation, judged (harness/expectation/). */
export type { ExpectationResults, ServerExpectation, StatementId, StatementResult } from './results/types.js';
export type { CheckId, CheckResult } from './checks/all-checks.js';
export type { Verdict } from './checks/types.js';
export { loadReporter, loadReporters, BUILTIN_REPORTERS, type ReporterOptions } from '../reports/load-reporters.js';
export type { Reporter } from '../reports/types.js';
