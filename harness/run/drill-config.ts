/**
 * What a run is given. A config file's default export and `runDrills(config)` are a DrillConfig;
 * the CLI's flags are keyed by the same names (harness/cli/run-flags.ts). RunOptions adds what only
 * the harness sets, and is the one options type from the command line to the drill loop.
 * Declared in the run layer so the config file's loader (config-file.ts) reads it without
 * importing the public entry, harness/index.ts, which only re-exports DrillConfig.
 */
import type { Reporter, ReporterOptions } from '../../reports/types.js';
import type { ProfileRef } from '../client-profiles/profiles.js';
import type { KillMode, KillPoint, NetworkChoice, ProtocolChoice, Scenario, SubjectSpec } from '../config/index.js';
import type { ClientKind } from '../drill/client/client-kinds.js';
import type { DrillOptions } from '../drill/executor/types.js';
import type { ShardSpec } from '../plan/shard.js';

export interface DrillConfig {
  scenarios: Array<string | Scenario>;
  /** Chooses the kill points of every scenario, in place of its own; a point one cannot reach is left out, with why. */
  points?: KillPoint[];
  /** Chooses the kill modes of every scenario, in place of its own `modes` (a cancel where no call is in flight is left out, with why). */
  modes?: KillMode[];
  /** Overrides every scenario's protocol era: auto, 2025-11-25 or 2026-07-28. */
  protocol?: ProtocolChoice;
  /** Overrides every scenario's `network` (docs/network.md): `loopback` or `host`. Default: each scenario's, else host. */
  network?: NetworkChoice;
  /** Replaces every scenario's `client-profiles` (harness/client-profiles/; default ts-sdk). */
  clientProfiles?: ProfileRef[];
  only?: string[];
  /** Drills in flight at most; without it, the phase-aware schedule (harness/run/scheduler.ts). CPU slots stay the cores. */
  concurrency?: number;
  /** The drill client: 'process' (its own Node process) or 'inprocess' (in the harness, over the server's pipes). */
  client?: ClientKind;
  /** Report folder: results.json, evidence/ and what the reporters write. Default: no files. */
  out?: string;
  reporters?: Array<string | Reporter>;
  signal?: AbortSignal;
  /** Run only shard `index` of `total` of the plan (1-based), as `--shard index/total`. */
  shard?: ShardSpec;
  /** Run every drill this many times (`--repeat`); a drill whose verdicts differ is flaky. */
  repeat?: number;
  /** A plan of no drill throws a NoDrillsError (exit 1), unless this is true (`--pass-with-no-drills`). */
  passWithNoDrills?: boolean;
  /** A baseline file (`--baseline`): the failures it lists are known and do not fail the run (harness/baseline). */
  baseline?: string;
  /** For `crash-drill orphans`: extra server patterns (regular expressions) besides the defaults. */
  orphans?: { match?: string[] };
}

/** A DrillConfig and what the harness itself sets for a run; every field is optional but `scenarios`. */
export interface RunOptions extends DrillConfig, DrillOptions {
  /** Drill these servers instead of every scenario's own (`--subject`), side by side. */
  subjects?: SubjectSpec[];
  /** The config file the options came from, named in errors. */
  configFile?: string;
  /** Where `only` came from, said back in an error: the CLI passes '--only' for the flag. */
  onlyField?: string;
  /** Where `network` came from, said back in an error: the CLI passes '--network' for the flag. */
  networkField?: string;
  /** `--update-baseline`: rewrite the baseline file from this run (harness/baseline/stage.ts). */
  updateBaseline?: boolean;
  /** Keep every drill's evidence in memory to return it (default true; without `out` always); the CLI, which writes the logs, says false. */
  keepEvidence?: boolean;
  /** Keep every drill's result in memory for `results.drills` (default true); false spools them (harness/results/drill-spool.ts). */
  keepDrills?: boolean;
  /** Where the run says what it leaves out of the plan and why (the CLI: stderr), one line at a time. */
  warn?: (line: string) => void;
  /** Where terminal reporters print, and the environment they read (GitHub Actions). */
  stdout?: ReporterOptions['stdout'];
  env?: NodeJS.ProcessEnv;
  /** CPU slots (default: the cores); for tests and the bench. */
  cpuSlots?: number;
}

/** Identity function for types: `defineConfig({...})` in a config file; validation happens at load. */
export function defineConfig<T extends DrillConfig>(config: T): T {
  return config;
}
