/**
 * The record of one process containment ended (identity, how, forced, steps), carried by drill
 * evidence, the stale sweep's report (harness/registry/runs.ts) and the watchdog's record.
 */
import { monoNow } from '../util/clock.js';
import type { ExitObservation } from '../observe/index.js';
import type { ProcIdentity } from '../observe/index.js';
import type { ContainmentStep, UntargetedStep } from './step.js';

export type EndedBy = 'already-gone' | 'SIGTERM' | 'SIGKILL' | 'survived';

/** A process step without its time and target: what the code records (the record names the process). */
export type StepRecord = Extract<UntargetedStep, { kind: 'signal' | 'cgroup.kill' | 'exited' }>;

export type ContainmentRecord = {
  pid: number;
  startTime: number;
  cmdline: string[];
  endedBy: EndedBy;
  /** True when SIGKILL (or cgroup.kill) was needed. */
  forced: boolean;
  steps: ContainmentStep[];
};

export function newRecord(id: ProcIdentity, cmdline: string[]): ContainmentRecord {
  return { pid: id.pid, startTime: id.startTime, cmdline: [...cmdline], endedBy: 'survived', forced: false, steps: [] };
}

/** Records a step of the record's process, stamped now unless `t` says when it happened. */
export function step(record: ContainmentRecord, what: StepRecord, t: number = monoNow()): void {
  record.steps.push({ t, ...what, target: { pid: record.pid, startTime: record.startTime } } as ContainmentStep);
}

export function exitStep(obs: ExitObservation): StepRecord {
  return { kind: 'exited', how: obs.how, code: obs.exitStatus?.code ?? null, signal: obs.exitStatus?.signal ?? null };
}
