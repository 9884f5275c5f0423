/**
 * A run: the planned drills, executed with bounded concurrency, judged, and handed to the
 * reporters. Before it starts it sweeps processes left by runs that were killed before they
 * could contain their drills.
 */
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter } from '../../reports/types.js';
import type { Scenario } from '../config/index.js';
import { defaultClientKind, type ClientKind } from '../drill/client/drill-client.js';
import { inProcessHolderPool } from '../drill/client/in-process-client.js';
import { executeDrill } from '../drill/executor/execute.js';
import type { PlannedDrill } from '../plan/types.js';
import type { DrillEvidence } from '../evidence/types.js';
import { drillIdFor, newRunId } from '../observe/index.js';
import { registerRun, runsDir, sweepStale, type StaleReport } from './index.js';
import { clearEngineMark, sweepStaleContainerRows } from '../containers/index.js';
import { planRun, type PlanFilter } from '../plan/plan.js';
import { attemptIndex, planFingerprint, repeatDrills, shardDrills, type ShardSpec } from '../plan/shard.js';
import { declaredExpectations, judgeExpectations } from '../expectation/judge.js';
import { findFlaky } from '../results/flaky.js';
import { judge } from '../results/judge.js';
import { containerContainmentOf } from '../evidence/container-queries.js';
import { writeEvidenceLog } from '../evidence/log.js';
import type { DrillInfo, DrillList, DrillResult, RunReport, RunResults } from '../results/types.js';
import { DrillSpool } from '../results/drill-spool.js';
import { collectGarbage } from './collect-garbage.js';
import { harnessInfo } from '../util/version.js';
import { RemotePool } from './remotes.js';
import { startSentinel } from './sentinel.js';
import { phaseOf, PhaseScheduler, scheduleLimits, type DrillSlot } from './scheduler.js';
import { summarize } from '../results/summary.js';
import { containersExtension } from '../drill/executor/drill-containers.js';

export interface RunOptions extends PlanFilter {
  /**
   * Drills in flight at most (default 1). 'auto' is the phase-aware default: as many drills in
   * flight as keep the cores busy, a CPU slot per core (harness/run/scheduler.ts). With a number
   * the CPU slots are still the cores, never more than that number.
   */
  concurrency?: number | 'auto';
  /** The drill client (harness/drill/client/drill-client.ts); default: the in-process client (CRASH_DRILL_CLIENT overrides). */
  client?: ClientKind;
  /** CPU slots (default: the cores); for tests and the bench. */
  cpuSlots?: number;
  reporters?: Reporter[];
  /** Abort to interrupt the run: active drills are contained, pending ones are not started. */
  signal?: AbortSignal;
  outDir?: string;
  /** Where to write each drill's hash-chained evidence log (results then name the file and its head). */
  evidenceDir?: string;
  sampleIntervalMs?: number;
  containTermWaitMs?: number;
  /** Run only this shard of the plan (harness/plan/shard.ts). */
  shard?: ShardSpec;
  /** Run each drill this many times (default 1); results keep every attempt. */
  repeat?: number;
  /**
   * Keep every drill's evidence in memory to return it (default true). The CLI, which writes each
   * log to `evidenceDir` as its drill ends, says false: a run's memory then does not grow with
   * its evidence (about 35 KB a drill), only with its results.
   */
  keepEvidence?: boolean;
  /**
   * Keep every drill's result in memory to return it in `results.drills` (default true). The CLI
   * says false: each result is then spooled to a file in the report folder as its drill ends
   * (harness/results/drill-spool.ts), the reporters read them back from it at the run's end, and
   * `results.drills` comes back empty (the reports and results.json have them).
   */
  keepDrills?: boolean;
}

export interface RunOutput {
  results: RunResults;
  evidence: DrillEvidence[];
}

export async function runScenarios(scenarios: Scenario[], options: RunOptions = {}): Promise<RunOutput> {
  runsDir(); // a registry that is not the user's own refuses the run here, before anything starts (RegistryError)
  const plan = planRun(scenarios, options);
  const planned = plan.drills;
  const repeat = options.repeat ?? 1;
  // Repeated attempts run under indexes past the end of the full plan, so each gets its own id.
  const planSize = repeat > 1 ? plan.size : 0;
  const drills = repeatDrills(shardDrills(planned, options.shard), repeat).map(({ drill, attempt }) => ({
    planned: drill,
    attempt,
    run: attempt === 1 ? drill : { ...drill, index: attemptIndex(drill.index, attempt, planSize) },
  }));
  // Spare holders first (in-process drills): perl starts while the run gets ready (holder-pool.ts).
  const client = options.client ?? defaultClientKind();
  const holders = client === 'inprocess' ? inProcessHolderPool(drills.length) : null;
  const runId = newRunId();
  const registration = registerRun(runId);
  // Contains this run's drills if the harness dies before the finally below (sentinel.ts).
  const sentinel = startSentinel(runId);
  const reporters = options.reporters ?? [];
  const startedAt = new Date().toISOString();
  const remotes = new RemotePool(runId);
  // What dead runs left is swept beside this run's drills, not before them: the sweep touches only
  // processes and containers of runs with no live harness, never this run's, and its engine probe
  // (`docker version`, 50 to 150 ms here) and /proc reads would delay every first drill. It starts
  // once a drill's client runs (while its server starts, the harness mostly waits), or at the end.
  let swept = null as Promise<StaleReport[]> | null;
  const sweep = (): Promise<StaleReport[]> =>
    (swept ??= Promise.all([sweepStale(), sweepStaleContainerRows()]).then(([processes, containers]) => [...processes, ...containers])); // containers: labelled ones of dead runs
  const evidence: DrillEvidence[] = new Array(drills.length);
  const keepEvidence = options.keepEvidence !== false || !options.evidenceDir;
  let containerSurvived = false;
  // Results on disk as drills end (the CLI), or in memory (runDrills() returns them). With no report
  // folder the spool's folder is named like the drills' temp folders, crash-drill-<runId>.*, so the
  // run's sentinel removes it when the harness dies (removeDrillTemps); in a report folder, the next
  // run there removes it (start-run.ts).
  const spoolDir = options.keepDrills === false && !options.outDir ? mkdtempSync(join(tmpdir(), `crash-drill-${runId}.drills-`)) : null;
  const spool = options.keepDrills === false ? new DrillSpool(join(options.outDir ?? spoolDir!, `.drills-${runId}.jsonl`)) : null;
  try {
    const limits =
      options.concurrency === 'auto'
        ? scheduleLimits(undefined, drills.length, options.cpuSlots)
        : scheduleLimits(options.concurrency ?? 1, drills.length, options.cpuSlots);
    const scheduler = new PhaseScheduler(limits);
    // Every drill in flight listens for the interrupt (harness/util/abortable.ts): more drills in flight, more listeners.
    if (options.signal) setMaxListeners(Math.max(10, limits.inFlight * 4), options.signal);
    for (const r of reporters)
      await r.onRunStart?.({
        runId,
        total: drills.length,
        concurrency: limits.inFlight,
        cpuSlots: limits.cpu,
        outDir: options.outDir ?? '',
        ...(plan.notRepeated.length > 0 ? { notRepeated: plan.notRepeated } : {}),
      });
    const results: DrillResult[] = new Array(spool ? 0 : drills.length);
    // What the summary and the flaky list need of each spooled drill, so they need not read the spool.
    const verdicts: Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>[] = [];
    let done = 0;
    /**
     * The first failure of a drill's own code (executeDrill rejecting, judging, its evidence log,
     * a reporter). runOne never rejects: while later drills still waited for admission, its
     * rejection had no handler yet, and Node ended the harness at once with exit 1, without its
     * results, without containing the drills in flight and without a word of why (a suite run's
     * uid-65534 matrix CLI exited 1 within 1.5 s). No drill is admitted after one; the run
     * throws it once the drills in flight are done (the CLI: "the harness failed", exit 4).
     */
    const failures: unknown[] = [];
    const runOne = async (position: number, slot: DrillSlot): Promise<void> => {
      const { planned: plannedDrill, attempt, run: drill } = drills[position];
      const info = drillInfo(drill, runId);
      try {
        for (const r of reporters) r.onDrillStart?.(info);
        const ev = await executeDrill(drill, {
          runId,
          // Each drill in flight listens to its remote's journal: as many listeners as drills in flight.
          remoteFor: (scenario) => remotes.remoteFor(scenario).then((remote) => remote.setMaxListeners(Math.max(10, limits.inFlight * 4))),
          trustFiles: () => remotes.tls.files(),
          signal: options.signal,
          sampleIntervalMs: options.sampleIntervalMs,
          containTermWaitMs: options.containTermWaitMs,
          client,
          holders,
          // Servers in containers: labelled, attributed, snapshotted and contained with the drill.
          extensions: [containersExtension],
          onEvent: (event) => {
            if (swept === null && event.type === 'client-ready') void sweep().catch(() => []);
            const phase = phaseOf(event);
            if (!phase || phase === slot.phase) return;
            slot.enter(phase);
            for (const r of reporters) r.onDrillPhase?.(info, phase);
          },
        });
        if (keepEvidence) evidence[position] = ev;
        if (containerContainmentOf(ev).some((r) => r.endedBy === 'survived')) containerSurvived = true;
        const result: DrillResult = { ...judge(ev), key: plannedDrill.key, index: plannedDrill.index, ...(repeat > 1 ? { attempt } : {}) };
        if (options.evidenceDir) result.evidence = writeEvidenceLog(options.evidenceDir, ev);
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
      const slot = await scheduler.admit(options.signal);
      if (!slot) break;
      if (failures.length > 0) {
        slot.release();
        break;
      }
      running.push(runOne(position, slot));
    }
    await Promise.all(running);
    if (failures.length > 0) throw failures[0];
    const stale = await sweep();
    const finished: DrillList = spool ?? results.filter(Boolean);
    const judged = spool ? verdicts.filter(Boolean) : finished;
    const output: RunReport = {
      version: 1,
      harness: harnessInfo(),
      runId,
      startedAt,
      finishedAt: new Date().toISOString(),
      interrupted: options.signal?.aborted ?? false,
      summary: summarize(judged),
      stale: stale.map((s) => ({
        drillId: s.drillId,
        pid: s.pid,
        startTime: s.startTime,
        cmdline: s.cmdline,
        endedBy: s.endedBy,
        ...(s.containedBy ? { containedBy: s.containedBy } : {}),
      })),
      drills: finished,
      ...(options.shard ? { shard: { index: options.shard.index, total: options.shard.total } } : {}),
      plan: {
        id: planFingerprint(
          planned.map((d) => d.key),
          repeat,
          plan.notRepeated,
        ),
        drills: planned.length,
        repeat,
      },
      flaky: findFlaky(judged),
      // The drills left out as the same drill as one that ran (harness/plan/not-repeated.ts); absent when none was.
      ...(plan.notRepeated.length > 0 ? { notRepeated: plan.notRepeated } : {}),
    };
    // Each server's cleanup expectation, from the whole plan's scenarios (so every shard names the same statements),
    // the drills not repeated included: a scenario all of whose drills were left out still declared its statements.
    const expectation = judgeExpectations(declaredExpectations(plan.filtered), finished);
    if (expectation) output.expectation = expectation;
    // A spooled run has kept no drill: what the heap holds now is mostly dead (harness/run/collect-garbage.ts).
    if (spool) collectGarbage();
    for (const r of reporters) await r.onRunEnd?.(output);
    return { results: { ...output, drills: spool ? [] : (finished as DrillResult[]) }, evidence: evidence.filter(Boolean) };
  } finally {
    spool?.close();
    if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
    // A run that ends early (an error, an interrupt) still lets its sweep finish before it goes.
    await swept?.catch(() => []);
    await holders?.close();
    await remotes.close();
    sentinel.release();
    // Its drills contained their own containers: unless one survived, nothing of this run is left
    // for a later sweep to ask the engine about.
    if (!containerSurvived) clearEngineMark(runId);
    registration.unregister();
  }
}

function drillInfo(drill: PlannedDrill, runId: string): DrillInfo {
  return { id: drillIdFor(runId, drill.index), key: drill.key, scenario: drill.scenario.id, point: drill.point, mode: drill.mode };
}
