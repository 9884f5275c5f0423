/** The run registry: a private folder of the user (registry.ts), each run's registration, its lock (run-lock.ts) and records in it, and the sweep of dead runs (runs.ts). */
export {
  registerRun,
  sweepStale,
  isRunLive,
  runStates,
  whenRunEnds,
  runsDir,
  watchdogFile,
  runFile,
  deadRunsWith,
  type RunRegistration,
  type RunState,
  type StaleReport,
  type SweepOptions,
} from './runs.js';
export { RegistryError, REGISTRY_ENV, registryDir, registryPath, checkedRunsDir } from './registry.js';
export { appendOwnFile, createOwnFile, isOwnFile, readOwnFile, replaceOwnFile } from './own-files.js';
