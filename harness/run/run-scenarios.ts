/** A run, set up and ended: plan, registration, sentinel, shared pools, spool, and the sweep of dead runs; the finally releases all of it. */
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter } from '../../reports/types.js';
import type { Scenario } from '../config/index.js';
import { clearEngineMark, sweepStaleContainerRows } from '../containers/index.js';
import { defaultClientKind, type ClientKind } from '../drill/client/drill-client.js';
import { inProcessHolderPool } from '../drill/client/in-process-client.js';
import { removeDrillTemps } from '../drill/executor/temp-folder.js';
import type { DrillEvidence } from '../evidence/types.js';
import { newRunId } from '../observe/index.js';
import { type Plan, planRun, type PlanFilter } from '../plan/plan.js';
import { attemptIndex, repeatDrills, shardDrills, type ShardSpec } from '../plan/shard.js';
import { registerRun, runsDir, sweepStale, type StaleReport } from '../registry/index.js';
import { startSentinel } from '../registry/index.js';
import { DrillSpool } from '../results/drill-spool.js';
import type { DrillList, DrillResult, RunResults } from '../results/types.js';
import { collectGarbage } from './collect-garbage.js';
import { runDrillLoop } from './drill-loop.js';
import { RemotePool } from './remotes.js';
import { runReport } from './run-report.js';
import { scheduleLimits } from './scheduler.js';

export interface RunOptions extends PlanFilter {
  /** Drills in flight at most (default 1); 'auto': the phase-aware schedule (harness/run/scheduler.ts). CPU slots stay the cores. */
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
  shard?: ShardSpec;
  repeat?: number;
  /** Keep every drill's evidence in memory to return it (default true); the CLI writes it to `evidenceDir` instead. */
  keepEvidence?: boolean;
  /** Keep every drill's result in memory for `results.drills` (default true); false spools them (harness/results/drill-spool.ts). */
  keepDrills?: boolean;
  /** The plan of these scenarios under these options, when the caller has made it already (start-run.ts checks it first). */
  plan?: Plan;
}

export interface RunOutput {
  results: RunResults;
  evidence: DrillEvidence[];
}

export async function runScenarios(scenarios: Scenario[], options: RunOptions = {}): Promise<RunOutput> {
  runsDir(); // a registry that is not the user's own refuses the run here, before anything starts (RegistryError)
  const plan = options.plan ?? planRun(scenarios, options);
  const planned = plan.drills;
  const repeat = options.repeat ?? 1;
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
  // Contains this run's drills if the harness dies before the finally below (harness/registry/sentinel.ts).
  const sentinel = startSentinel(runId);
  const reporters = options.reporters ?? [];
  const startedAt = new Date().toISOString();
  const remotes = new RemotePool(runId);
  // Swept beside this run's drills, not before: it never touches this run's processes, and would delay every first drill.
  let swept = null as Promise<StaleReport[]> | null;
  const sweep = (): Promise<StaleReport[]> =>
    (swept ??= Promise.all([sweepStale(), sweepStaleContainerRows()]).then(([processes, containers]) => [...processes, ...containers])); // containers: labelled ones of dead runs
  const keepEvidence = options.keepEvidence !== false || !options.evidenceDir;
  let containerSurvived = false;
  // A spool outside a report folder is named like the drills' temp folders, so the sentinel removes it (removeDrillTemps).
  const spoolDir = options.keepDrills === false && !options.outDir ? mkdtempSync(join(tmpdir(), `crash-drill-${runId}.drills-`)) : null;
  const spool = options.keepDrills === false ? new DrillSpool(join(options.outDir ?? spoolDir!, `.drills-${runId}.jsonl`)) : null;
  try {
    const limits =
      options.concurrency === 'auto'
        ? scheduleLimits(undefined, drills.length, options.cpuSlots)
        : scheduleLimits(options.concurrency ?? 1, drills.length, options.cpuSlots);
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
    const { results, verdicts, evidence } = await runDrillLoop({
      runId,
      drills,
      limits,
      repeat,
      signal: options.signal,
      sampleIntervalMs: options.sampleIntervalMs,
      containTermWaitMs: options.containTermWaitMs,
      evidenceDir: options.evidenceDir,
      client,
      holders,
      remotes,
      reporters,
      spool,
      keepEvidence,
      onClientReady: () => {
        if (swept === null) void sweep().catch(() => []);
      },
      onContainerSurvived: () => {
        containerSurvived = true;
      },
    });
    const stale = await sweep();
    const finished: DrillList = spool ?? results.filter(Boolean);
    const output = runReport({
      runId,
      startedAt,
      interrupted: options.signal?.aborted ?? false,
      planned,
      filtered: plan.filtered,
      notRepeated: plan.notRepeated,
      repeat,
      shard: options.shard,
      finished,
      judged: spool ? verdicts.filter(Boolean) : finished,
      stale,
    });
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
    // A drill whose clean-up stopped half way left its temp folder: the run removes what is left of its own.
    removeDrillTemps(runId);
    sentinel.release();
    // Its drills contained their own containers: unless one survived, no later sweep need ask the engine.
    if (!containerSurvived) clearEngineMark(runId);
    registration.unregister();
  }
}
