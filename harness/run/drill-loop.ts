/** The drill loop: each drill admitted in plan order (scheduler.ts), executed, judged, logged, reported and kept. */
import type { Reporter } from '../../reports/types.js';
import type { ClientKind } from '../drill/client/drill-client.js';
import { executeDrill } from '../drill/executor/execute.js';
import { containersExtension } from '../drill/executor/drill-containers.js';
import type { DrillOptions } from '../drill/executor/types.js';
import type { HolderPool } from '../drill/holder/holder-pool.js';
import { containerContainmentOf } from '../evidence/container-queries.js';
import { writeEvidenceLog } from '../evidence/log.js';
import type { DrillEvidence } from '../evidence/types.js';
import { drillIdFor } from '../observe/index.js';
import type { PlannedDrill } from '../plan/types.js';
import type { DrillSpool } from '../results/drill-spool.js';
import { judge } from '../results/judge.js';
import type { DrillInfo, DrillResult } from '../results/types.js';
import type { RemotePool } from './remotes.js';
import { nextPhase, PhaseScheduler, type DrillSlot, type ScheduleLimits } from './scheduler.js';

/** One drill of the plan as the loop runs it: the planned drill, its attempt, and the drill run (an attempt past the first runs under its own index). */
export interface LoopDrill {
  planned: PlannedDrill;
  attempt: number;
  run: PlannedDrill;
}

/** The run's drills, limits and shared resources; `options` go to every drill as they are (its client chosen). */
export interface DrillLoopInput {
  runId: string;
  drills: readonly LoopDrill[];
  limits: ScheduleLimits;
  repeat: number;
  options: DrillOptions & { client: ClientKind };
  /** Where each drill's hash-chained evidence log goes (results then name the file and its head). */
  evidenceDir?: string;
  holders: HolderPool | null;
  remotes: RemotePool;
  reporters: readonly Reporter[];
  /** With a spool, each result goes to disk as its drill ends; without one, it is kept in memory. */
  spool: DrillSpool | null;
  keepEvidence: boolean;
  /** A drill's client is ready (the harness mostly waits while its server starts). */
  onClientReady(): void;
  /** A drill's container survived its containment: the run's engine mark stays for a later sweep. */
  onContainerSurvived(): void;
}

export interface DrillLoopOutput {
  /** Without a spool: each drill's result by its position in the plan (holes where a drill did not run). */
  results: DrillResult[];
  /** With a spool: what the summary and the flaky list need of each drill, so they need not read the spool. */
  verdicts: Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>[];
  evidence: DrillEvidence[];
}

export async function runDrillLoop(input: DrillLoopInput): Promise<DrillLoopOutput> {
  const { runId, drills, limits, reporters, spool } = input;
  const scheduler = new PhaseScheduler(limits);
  const evidence: DrillEvidence[] = new Array(drills.length);
  const results: DrillResult[] = new Array(spool ? 0 : drills.length);
  const verdicts: DrillLoopOutput['verdicts'] = [];
  let done = 0;
  /**
   * The first failure of a drill's own code. runOne never rejects (an unhandled rejection would end
   * the harness without containment); no drill is admitted after one, and the run throws it at the end.
   */
  const failures: unknown[] = [];
  const runOne = async (position: number, slot: DrillSlot): Promise<void> => {
    const { planned: plannedDrill, attempt, run: drill } = drills[position];
    const info = drillInfo(drill, runId);
    try {
      for (const r of reporters) r.onDrillStart?.(info);
      const ev = await executeDrill(drill, {
        ...input.options,
        runId,
        // Each drill in flight listens to its remote's journal: as many listeners as drills in flight.
        remoteFor: (scenario) => input.remotes.remoteFor(scenario).then((remote) => remote.setMaxListeners(Math.max(10, limits.inFlight * 4))),
        trustFiles: () => input.remotes.tls.files(),
        holders: input.holders,
        // Servers in containers: labelled, attributed, snapshotted and contained with the drill.
        extensions: [containersExtension],
        onEvent: (event) => {
          if (event.type === 'client-ready') input.onClientReady();
          const phase = nextPhase(slot.phase, event);
          if (!phase || phase === slot.phase) return;
          slot.enter(phase);
          for (const r of reporters) r.onDrillPhase?.(info, phase);
        },
      });
      if (input.keepEvidence) evidence[position] = ev;
      if (containerContainmentOf(ev).some((r) => r.endedBy === 'survived')) input.onContainerSurvived();
      const result: DrillResult = { ...judge(ev), key: plannedDrill.key, index: plannedDrill.index, ...(input.repeat > 1 ? { attempt } : {}) };
      if (input.evidenceDir) result.evidence = writeEvidenceLog(input.evidenceDir, ev);
      done++;
      for (const r of reporters) r.onDrillEnd?.(result, { done, total: drills.length });
      // After every onDrillEnd: a baseline marks the result in its own (harness/baseline/stage.ts).
      if (spool) {
        spool.put(position, result);
        verdicts[position] = { key: result.key, index: result.index, attempt: result.attempt, verdict: result.verdict };
      } else results[position] = result;
    } catch (error) {
      failures.push(error);
    } finally {
      slot.release();
    }
  };
  // Drills are admitted in plan order as the limits allow (harness/run/scheduler.ts); each runs on its own.
  const running: Array<Promise<void>> = [];
  for (let position = 0; position < drills.length && failures.length === 0; position++) {
    const slot = await scheduler.admit(input.options.signal);
    if (!slot) break;
    if (failures.length > 0) {
      slot.release();
      break;
    }
    running.push(runOne(position, slot));
  }
  await Promise.all(running);
  if (failures.length > 0) throw failures[0];
  return { results, verdicts, evidence };
}

function drillInfo(drill: PlannedDrill, runId: string): DrillInfo {
  return { id: drillIdFor(runId, drill.index), key: drill.key, scenario: drill.scenario.id, point: drill.point, mode: drill.mode };
}
