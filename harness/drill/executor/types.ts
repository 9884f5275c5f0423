import type { CpuReading } from './cpu-meter.js';
import type { Scenario } from '../../config/index.js';
import type { EvidenceEvent } from '../../evidence/types.js';
import type { PlannedDrill } from '../../plan/types.js';
import type { DrillRemote } from '../../remote/remote.js';
import type { TrustFiles } from '../../remote/tls/trust-files.js';
import type { ClientKind } from '../client/drill-client.js';
import type { HolderPool } from '../holder/holder-pool.js';
import type { DrillExtensionFactory, Extensions } from './extension.js';
import type { EvidenceRecorder } from './recorder.js';

/** What a run's options say to each of its drills; the run's options type (RunOptions, harness/run/run-plan.ts) extends it. */
export interface DrillOptions {
  /** Aborted when the harness is interrupted: the drill stops waiting and contains at once. */
  signal?: AbortSignal;
  /** How often the observer samples the process table while a drill runs (ms). */
  sampleIntervalMs?: number;
  /** Containment: how long SIGTERM gets before SIGKILL (ms). */
  containTermWaitMs?: number;
  /** The drill client: the SDK client in the harness process (the default) or a process of its own (harness/drill/client/drill-client.ts). */
  client?: ClientKind;
}

/** A drill's options and what the run shares with it. */
export interface ExecuteOptions extends DrillOptions {
  runId: string;
  /** The drill remote this scenario's drills talk to (one per run, or per handler set). */
  remoteFor: (scenario: Scenario) => Promise<DrillRemote>;
  /** The run's trust files (harness/remote/tls/trust-files.ts), written at the first drill that asks. */
  trustFiles?: () => Promise<TrustFiles>;
  /** Every evidence event as it is recorded (progress reporting). */
  onEvent?: (event: EvidenceEvent) => void;
  /** Once the drill's processes are tracked: its CPU so far, in ms, for the run's scheduler (cpu-meter.ts). */
  onCpuMeter?: (meter: () => CpuReading | null) => void;
  /** The run's spare holders for in-process clients (holder-pool.ts); without it each drill starts its own. */
  holders?: HolderPool | null;
  /** Each drill gets one of each (extension.ts): servers in containers are one. */
  extensions?: readonly DrillExtensionFactory[];
}

/** What every phase of one drill is given. */
export interface DrillContext {
  drill: PlannedDrill;
  drillId: string;
  rec: EvidenceRecorder;
  opts: ExecuteOptions;
  extensions: Extensions;
  /** Waits for a promise unless the harness is interrupted first (then throws Interrupted, and the drill is contained). */
  wait: <T>(promise: Promise<T>) => Promise<T>;
}
