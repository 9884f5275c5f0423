/** The run registry: its private folder (registry.ts), registrations and liveness (registration.ts, run-lock.ts), and the sweep (runs.ts). */
export { registerRun, isRunLive, runStates, whenRunEnds, runFile, type RunRegistration, type RunState } from './registration.js';
export { sweepStale, watchdogFile, deadRunsWith, type StaleReport, type SweepOptions } from './runs.js';
export { RegistryError, REGISTRY_ENV, registryDir, registryPath, runsDir } from './registry.js';
export { appendOwnFile, createOwnFile, isOwnFile, readOwnFile, replaceOwnFile } from './own-files.js';
export { checkedFolder } from './registry.js';
export { removeOwnFolders } from './own-files.js';
export { startSentinel, type Sentinel } from './sentinel.js';
