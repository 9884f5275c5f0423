import type { DrillInfo, DrillList, DrillResult, NotRepeatedDrill, RunReport, RunResults } from '../harness/results/types.js';

export type { DrillInfo, DrillList, DrillResult, NotRepeatedDrill, RunReport, RunResults };
export type { CheckFinding, CheckId, ContainmentStep, KillMode, KillPoint } from '../harness/results/types.js';

/** What every reporter is built with (`create(options)`, reports/load-reporters.ts). */
export interface ReporterOptions {
  /** The report folder (results.json, evidence/, and whatever the reporter writes). */
  outDir: string;
  /** Where a terminal reporter prints. */
  stdout?: { write(s: string): unknown; isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
  /** The files the run's built-in reporters write in outDir (loadReporters fills it), for the console to name. */
  files?: string[];
}

export interface RunStartInfo {
  runId: string;
  total: number;
  concurrency: number;
  /** Drills in a CPU phase at once (phase-aware scheduling); absent where there is no schedule. */
  cpuSlots?: number;
  outDir: string;
  /** Drills of the plan left out as the same drill as one that runs (results.json `notRepeated`); absent when none is. */
  notRepeated?: NotRepeatedDrill[];
}

/** Reporters are objects with optional hooks (vitest, Playwright); every hook may be async. */
export interface Reporter {
  name: string;
  onRunStart?(info: RunStartInfo): void | Promise<void>;
  onDrillStart?(drill: DrillInfo): void;
  /**
   * A drill moved on: 'starting' (spawn, handshake, setup, kill point), 'exiting' (its server told of the loss),
   * 'waiting' (deadline and grace windows), 'containing'. `idle`: it moved to 'waiting' because its processes used
   * almost no CPU while it started or exited (harness/run/scheduler.ts), not on an event of its own.
   */
  onDrillPhase?(drill: DrillInfo, phase: string, idle?: boolean): void;
  onDrillEnd?(result: DrillResult, progress: { done: number; total: number }): void;
  /** The run's results; in a CLI run each drill is read from disk when asked for, so keep only what you need. */
  onRunEnd?(results: RunReport): void | Promise<void>;
  /** True when it writes to the terminal (when none does, the console reporter is added). */
  printsToStdio?(): boolean;
}
