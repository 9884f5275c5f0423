/**
 * A plan run: the run's resources set up as tasks (registration, engine mark, sentinel, drill temp
 * folders, holders, remotes, the sweep of dead runs, report folder and spool), the drill loop, and
 * what the run reports; the tasks are torn down in reverse order (harness/util/tasks.ts).
 */
import { setMaxListeners } from 'node:events';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Reporter } from '../../reports/types.js';
import { clearEngineMark, sweepStaleContainerRows } from '../containers/index.js';
import { defaultClientKind } from '../drill/client/drill-client.js';
import { inProcessHolderPool } from '../drill/client/in-process-client.js';
import { removeDrillTemps } from '../drill/executor/temp-folder.js';
import type { HolderPool } from '../drill/holder/holder-pool.js';
import type { DrillEvidence } from '../evidence/types.js';
import { newRunId } from '../observe/index.js';
import type { Plan } from '../plan/plan.js';
import { attemptIndex, repeatDrills, shardDrills } from '../plan/shard.js';
import { isRunLive, registerRun, startSentinel, sweepStale, type RunRegistration, type Sentinel, type StaleReport } from '../registry/index.js';
import { DrillSpool } from '../results/drill-spool.js';
import type { DrillList, DrillResult, RunResults } from '../results/types.js';
import { collectGarbage } from './collect-garbage.js';
import type { RunOptions } from './drill-config.js';
import { runDrillLoop } from './drill-loop.js';
import { RemotePool } from './remotes.js';
import { runReport } from './run-report.js';
import { scheduleLimits } from './scheduler.js';
import { type Task, withTasks } from '../util/tasks.js';

/** What runPlan reads of the run's options: the plan is made, and the reporters are loaded (run-drills.ts). */
export type PlanRunOptions = Omit<RunOptions, 'scenarios' | 'reporters'> & { reporters?: readonly Reporter[] };

export interface RunOutput {
  results: RunResults;
  evidence: DrillEvidence[];
}

export async function runPlan(plan: Plan, options: PlanRunOptions = {}): Promise<RunOutput> {
  const planned = plan.drills;
  const repeat = options.repeat ?? 1;
  const planSize = repeat > 1 ? plan.size : 0;
  const drills = repeatDrills(shardDrills(planned, options.shard), repeat).map(({ drill, attempt }) => ({
    planned: drill,
    attempt,
    run: attempt === 1 ? drill : { ...drill, index: attemptIndex(drill.index, attempt, planSize) },
  }));
  const client = options.client ?? defaultClientKind();
  const runId = newRunId();
  const reporters = options.reporters ?? [];
  const outDir = options.out ? resolve(options.out) : undefined;
  const evidenceDir = outDir ? join(outDir, 'evidence') : undefined;
  const startedAt = new Date().toISOString();
  const remotes = new RemotePool(runId);
  let registration: RunRegistration | null = null;
  let sentinel: Sentinel | null = null;
  let holders: HolderPool | null = null;
  let containerSurvived = false;
  let spoolDir: string | null = null;
  let spool: DrillSpool | null = null;
  // Swept beside this run's drills, not before: it never touches this run's processes, and would delay every first drill.
  let swept = null as Promise<StaleReport[]> | null;
  const sweep = (): Promise<StaleReport[]> =>
    (swept ??= Promise.all([sweepStale(), sweepStaleContainerRows()]).then(([processes, containers]) => [...processes, ...containers])); // containers: labelled ones of dead runs
  const tasks: Task[] = [
    // First: a registry that is not the user's own refuses the run (RegistryError) before anything starts.
    { title: 'registration', setup: () => void (registration = registerRun(runId)), teardown: () => registration?.unregister() },
    // Its drills contained their own containers: unless one survived, no later sweep need ask the engine.
    { title: 'engine mark', teardown: () => (containerSurvived ? undefined : clearEngineMark(runId)) },
    // Contains this run's drills if the harness dies before the teardowns (harness/registry/sentinel.ts).
    { title: 'sentinel', setup: () => void (sentinel = startSentinel(runId)), teardown: () => sentinel?.release() },
    // A drill whose clean-up stopped half way left its temp folder: the run removes what is left of its own.
    { title: 'drill temp folders', teardown: () => removeDrillTemps(runId) },
    // Spare holders for in-process drills: perl starts while the run gets ready (holder-pool.ts).
    {
      title: 'holders',
      setup: () => void (holders = client === 'inprocess' ? inProcessHolderPool(drills.length) : null),
      teardown: () => holders?.close(),
    },
    { title: 'remotes', teardown: () => remotes.close() },
    // A run that ends early (an error, an interrupt) still lets its sweep finish before it goes.
    { title: 'sweep of dead runs', teardown: () => swept?.then(() => undefined).catch(() => undefined) },
    {
      title: 'report folder',
      setup: () => {
        if (!outDir) return;
        rmSync(join(outDir, 'evidence'), { recursive: true, force: true });
        removeDeadSpools(outDir);
      },
    },
    {
      title: 'spool',
      setup: () => {
        if (options.keepDrills !== false) return;
        // A spool outside a report folder is named like the drills' temp folders, so the sentinel removes it (removeDrillTemps).
        if (!outDir) spoolDir = mkdtempSync(join(tmpdir(), `crash-drill-${runId}.drills-`));
        spool = new DrillSpool(join(outDir ?? spoolDir!, `.drills-${runId}.jsonl`));
      },
      teardown: () => {
        spool?.close();
        if (spoolDir) rmSync(spoolDir, { recursive: true, force: true });
      },
    },
  ];
  return withTasks(tasks, async () => {
    const limits = scheduleLimits(options.concurrency, drills.length, options.cpuSlots);
    if (options.signal) setMaxListeners(Math.max(10, limits.inFlight * 4), options.signal);
    for (const r of reporters)
      await r.onRunStart?.({
        runId,
        total: drills.length,
        concurrency: limits.inFlight,
        cpuSlots: limits.cpu,
        outDir: outDir ?? '',
        ...(plan.notRepeated.length > 0 ? { notRepeated: plan.notRepeated } : {}),
      });
    const { results, verdicts, evidence } = await runDrillLoop({
      runId,
      drills,
      limits,
      repeat,
      options: { ...options, client },
      evidenceDir,
      holders,
      remotes,
      reporters,
      spool,
      keepEvidence: options.keepEvidence !== false || !evidenceDir,
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
  });
}

/** The drill spools a SIGKILLed run left in this report folder (harness/results/drill-spool.ts); a live run's is left alone. */
export function removeDeadSpools(outDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(outDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const runId = /^\.drills-(.+)\.jsonl$/.exec(name)?.[1];
    if (!runId || isRunLive(runId)) continue;
    const path = join(outDir, name);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
    rmSync(path, { force: true });
    removed.push(name);
  }
  return removed;
}
