/** `runDrills()`, the library's way in: the same run path as `crash-drill run` (harness/run/start-run.ts), from a config object or the config file the CLI would read. */
import type { DrillEvidence } from '../evidence/types.js';
import type { RunResults } from '../results/types.js';
import { ConfigError } from '../config/index.js';
import { findConfigFile, loadConfigFile } from './config-file.js';
import type { DrillConfig } from './drill-config.js';
import { startRun } from './start-run.js';

/** Runs the drills through the same run path as `crash-drill run` (harness/run/start-run.ts) and returns results and evidence. */
export async function runDrills(given?: DrillConfig): Promise<{ results: RunResults; evidence: DrillEvidence[] }> {
  const file = given ? null : findConfigFile(process.cwd());
  if (!given && !file) throw new ConfigError({ message: `runDrills(): no config given and no crash-drill.config.{ts,mts,js,mjs} in ${process.cwd()}` });
  const config = given ?? (await loadConfigFile(file!));
  return startRun({ ...config, configFile: file ?? undefined });
}
