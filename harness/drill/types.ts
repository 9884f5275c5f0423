import type { KillMode, KillPoint, Scenario } from '../config/index.js';
import type { EvidenceEvent } from '../evidence/types.js';
import type { DrillRemote } from '../remote/index.js';
import type { ClientKind } from './drill-client.js';
import type { HolderPool } from './holder-pool.js';

/** One scenario at one kill point in one kill mode: the unit that gets a verdict. */
export interface PlannedDrill {
  /** Position in the full plan (stable across shards and filters). */
  index: number;
  /** `<scenario>/<point>/<mode>`: the same drill in every run. */
  key: string;
  scenario: Scenario;
  point: KillPoint;
  mode: KillMode;
}

export interface ExecuteOptions {
  runId: string;
  /** The drill remote this scenario's drills talk to (one per run, or per handler set). */
  remoteFor: (scenario: Scenario) => Promise<DrillRemote>;
  /** Aborted when the harness is interrupted: the drill stops waiting and contains at once. */
  signal?: AbortSignal;
  /** How often the observer samples the process table while a drill runs (ms). */
  sampleIntervalMs?: number;
  /** Containment: how long SIGTERM gets before SIGKILL (ms). */
  containTermWaitMs?: number;
  /** The drill client: a process of its own (default) or the SDK client in the harness process (harness/drill/drill-client.ts). */
  client?: ClientKind;
  /** Every evidence event as it is recorded (progress reporting). */
  onEvent?: (event: EvidenceEvent) => void;
  /** The run's spare holders for in-process clients (holder-pool.ts); without it each drill starts its own. */
  holders?: HolderPool | null;
}
