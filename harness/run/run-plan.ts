/**
 * A plan's run and what it is given. `DrillConfig` is what a config file and `runDrills(config)`
 * take; `RunOptions` adds what only the harness sets, and is the one options type from the command
 * line (harness/cli/run-flags.ts) through runDrills (run-drills.ts) to every drill (it extends the
 * executor's DrillOptions). runPlan sets the run's resources up as tasks (registration, engine mark,
 * sentinel, drill temp folders, holders, remotes, the sweep of dead runs, report folder and spool),
 * runs the drill loop, and reports; the tasks are torn down in reverse order (harness/util/tasks.ts).
 */
import { setMaxListeners } from 'node:events';
import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Reporter, ReporterOptions } from '../../reports/types.js';
import type { ProfileRef } from '../client-profiles/profiles.js';
import type { KillMode, KillPoint, NetworkChoice, ProtocolChoice, Scenario, SubjectSpec } from '../config/index.js';
import { clearEngineMark, sweepStaleContainerRows } from '../containers/index.js';
import type { ClientKind } from '../drill/client/client-kinds.js';
import { defaultClientKind } from '../drill/client/drill-client.js';
import { inProcessHolderPool } from '../drill/client/in-process-client.js';
import { containersExtension } from '../drill/executor/drill-containers.js';
import { executeDrill } from '../drill/executor/execute.js';
import { removeDrillTemps } from '../drill/executor/temp-folder.js';
import type { DrillOptions } from '../drill/executor/types.js';
import type { HolderPool } from '../drill/holder/holder-pool.js';
import { containerContainmentOf } from '../evidence/container-queries.js';
import { writeEvidenceLog } from '../evidence/log.js';
import { quitReachedNothing } from '../evidence/client-signals.js';
import type { DrillEvidence } from '../evidence/types.js';
import { declaredExpectations, judgeExpectations } from '../expectation/judge.js';
import { drillIdFor, newRunId } from '../observe/index.js';
import { closeTwins, SAME_BY_QUIT } from '../plan/by-evidence.js';
import { type NotRepeated, notRepeatedEntries } from '../plan/not-repeated.js';
import type { Plan } from '../plan/plan.js';
import { attemptIndex, planFingerprint, repeatDrills, shardDrills, type ShardSpec } from '../plan/shard.js';
import type { PlannedDrill } from '../plan/types.js';
import { isRunLive, registerRun, startSentinel, sweepStale, type RunRegistration, type Sentinel, type StaleReport } from '../registry/index.js';
import { DrillSpool } from '../results/drill-spool.js';
import { findFlaky } from '../results/flaky.js';
import { judge } from '../results/judge.js';
import { requirementsList } from '../results/requirements.js';
import { summarize } from '../results/summary.js';
import type { DrillInfo, DrillList, DrillResult, NotRepeatedDrill, RunReport, RunResults } from '../results/types.js';
import { type Task, withTasks } from '../util/tasks.js';
import { harnessInfo } from '../util/version.js';
import { COLLECT_ABOVE_BYTES, collectGarbage } from './collect-garbage.js';
import type { CpuPool } from './cpu-pool.js';
import { RemotePool } from './remotes.js';
import { nextPhase, PhaseScheduler, scheduleLimits, type DrillSlot, type ScheduleLimits } from './scheduler.js';

/** What a config file's default export and `runDrills(config)` take; the CLI's flags are keyed by the same names. */
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
  /** The CPU slots to draw on, shared with other runs (harness/run/cpu-pool.ts: the survey's servers drilled at once); `cpuSlots` then only caps the run's own. */
  cpuPool?: CpuPool;
  /**
   * Leave out a stop drill whose close twin's evidence shows it cannot differ (harness/plan/by-evidence.ts):
   * the survey's runs. Not with `repeat` or `shard`.
   */
  notRepeatedByEvidence?: boolean;
}

/** Identity function for types: `defineConfig({...})` in a config file; validation happens at load. */
export function defineConfig<T extends DrillConfig>(config: T): T {
  return config;
}

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
    const twins = options.notRepeatedByEvidence && repeat === 1 && !options.shard ? closeTwins(drills.map((d) => d.planned)) : new Map<number, number>();
    // Each drill in flight listens to the signal, and so does each stop drill waiting to be admitted once its twin has ended.
    if (options.signal) setMaxListeners(Math.max(10, limits.inFlight * 4 + twins.size), options.signal);
    for (const r of reporters)
      await r.onRunStart?.({
        runId,
        total: drills.length,
        concurrency: limits.inFlight,
        cpuSlots: limits.cpu,
        outDir: outDir ?? '',
        ...(plan.notRepeated.length > 0 ? { notRepeated: plan.notRepeated } : {}),
      });
    const { results, verdicts, evidence, byEvidence } = await runDrillLoop({
      runId,
      drills,
      limits,
      repeat,
      twins,
      cpuPool: options.cpuPool,
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
      byEvidence,
      repeat,
      shard: options.shard,
      finished,
      judged: spool ? verdicts.filter(Boolean) : finished,
      stale,
    });
    // A spooled run has kept no drill: what a large heap holds now is mostly dead (harness/run/collect-garbage.ts).
    if (spool) collectGarbage(COLLECT_ABOVE_BYTES);
    for (const r of reporters) await r.onRunEnd?.(output);
    return { results: { ...output, drills: spool ? [] : (finished as DrillResult[]) }, evidence: evidence.filter(Boolean) };
  });
}

/** One drill of the plan as the loop runs it: the planned drill, its attempt, and the drill run (an attempt past the first runs under its own index). */
interface LoopDrill {
  planned: PlannedDrill;
  attempt: number;
  run: PlannedDrill;
}

/** The run's drills, limits and shared resources; `options` go to every drill as they are (its client chosen). */
interface DrillLoopInput {
  runId: string;
  drills: readonly LoopDrill[];
  limits: ScheduleLimits;
  repeat: number;
  /** Each drill that runs only if the drill at the other position may differ from it, by that drill's evidence (harness/plan/by-evidence.ts). */
  twins: ReadonlyMap<number, number>;
  /** The CPU slots shared with other runs, if any (scheduler.ts). */
  cpuPool?: CpuPool;
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

interface DrillLoopOutput {
  /** Without a spool: each drill's result by its position in the plan (holes where a drill did not run). */
  results: DrillResult[];
  /** With a spool: what the summary and the flaky list need of each drill, so they need not read the spool. */
  verdicts: Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>[];
  evidence: DrillEvidence[];
  /** The drills left out by an earlier drill's evidence, in plan order. */
  byEvidence: NotRepeated[];
}

/** The drill loop: each drill admitted in plan order (scheduler.ts), executed, judged, logged, reported and kept. */
async function runDrillLoop(input: DrillLoopInput): Promise<DrillLoopOutput> {
  const { runId, drills, limits, reporters, spool } = input;
  const scheduler = new PhaseScheduler(limits, input.cpuPool);
  const evidence: DrillEvidence[] = new Array(drills.length);
  const results: DrillResult[] = new Array(spool ? 0 : drills.length);
  const verdicts: DrillLoopOutput['verdicts'] = [];
  let done = 0;
  let total = drills.length;
  // Of a drill a twin waits on: whether its evidence shows the twin the same drill, once it has ended (false if it ran into an error).
  const waitedOn = new Set(input.twins.values());
  const shows = new Map<number, { promise: Promise<boolean>; resolve: (same: boolean) => void }>();
  for (const position of waitedOn) {
    let resolve = (_same: boolean) => {};
    const promise = new Promise<boolean>((r) => (resolve = r));
    shows.set(position, { promise, resolve });
  }
  const leftOut: { position: number; entry: NotRepeated }[] = [];
  const started = new Set<number>();
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
        // A drill that uses almost no CPU while it starts or exits gives its slot back (scheduler.ts).
        onCpuMeter: (meter) =>
          slot.measure(meter, () => {
            for (const r of reporters) r.onDrillPhase?.(info, 'waiting', true);
          }),
        onEvent: (event) => {
          if (event.type === 'client-ready') input.onClientReady();
          const phase = nextPhase(slot.phase, event);
          if (!phase || phase === slot.phase) return;
          slot.enter(phase);
          for (const r of reporters) r.onDrillPhase?.(info, phase);
        },
      });
      if (input.keepEvidence) evidence[position] = ev;
      shows.get(position)?.resolve(quitReachedNothing(ev));
      if (containerContainmentOf(ev).some((r) => r.endedBy === 'survived')) input.onContainerSurvived();
      const result: DrillResult = { ...judge(ev), key: plannedDrill.key, index: plannedDrill.index, ...(input.repeat > 1 ? { attempt } : {}) };
      if (input.evidenceDir) result.evidence = writeEvidenceLog(input.evidenceDir, ev);
      done++;
      for (const r of reporters) r.onDrillEnd?.(result, { done, total });
      // After every onDrillEnd: a baseline marks the result in its own (harness/baseline/stage.ts).
      if (spool) {
        spool.put(position, result);
        verdicts[position] = { key: result.key, index: result.index, attempt: result.attempt, verdict: result.verdict };
      } else results[position] = result;
    } catch (error) {
      failures.push(error);
    } finally {
      shows.get(position)?.resolve(false);
      slot.release();
    }
  };
  /** A drill with a twin: left out if the twin's evidence shows it the same drill, else admitted and run. */
  const afterTwin = async (position: number, twin: number): Promise<void> => {
    if (await shows.get(twin)!.promise) {
      total--;
      const { planned: drill } = drills[position];
      leftOut.push({ position, entry: { key: drill.key, sameAs: drills[twin].planned.key, byEvidence: { mode: drill.mode, reason: SAME_BY_QUIT } } });
      return;
    }
    if (failures.length > 0) return;
    const slot = await scheduler.admit(input.options.signal);
    if (!slot) return;
    if (failures.length > 0) {
      slot.release();
      return;
    }
    await runOne(position, slot);
  };
  // Drills are admitted in plan order as the limits allow (harness/run/scheduler.ts); each runs on its own.
  const running: Array<Promise<void>> = [];
  for (let position = 0; position < drills.length && failures.length === 0; position++) {
    const twin = input.twins.get(position);
    if (twin !== undefined) {
      running.push(afterTwin(position, twin));
      continue;
    }
    const slot = await scheduler.admit(input.options.signal);
    if (!slot) break;
    if (failures.length > 0) {
      slot.release();
      break;
    }
    started.add(position);
    running.push(runOne(position, slot));
  }
  // A twin the loop never reached (an abort, a failure) shows nothing: what waits on it is not left out by it.
  for (const position of waitedOn) if (!started.has(position)) shows.get(position)!.resolve(false);
  await Promise.all(running);
  if (failures.length > 0) throw failures[0];
  leftOut.sort((a, b) => a.position - b.position);
  return { results, verdicts, evidence, byEvidence: leftOut.map((l) => l.entry) };
}

function drillInfo(drill: PlannedDrill, runId: string): DrillInfo {
  return { id: drillIdFor(runId, drill.index), key: drill.key, scenario: drill.scenario.id, point: drill.point, mode: drill.mode };
}

interface RunReportInput {
  runId: string;
  startedAt: string;
  interrupted: boolean;
  planned: readonly PlannedDrill[];
  /** The plan before drills the same as another were left out: every scenario that declared a cleanup expectation. */
  filtered: readonly PlannedDrill[];
  /** The drills left out as the same drill as one that ran (harness/plan/not-repeated.ts). */
  notRepeated: NotRepeatedDrill[];
  /** The drills left out at run time by an earlier drill's evidence (harness/plan/by-evidence.ts). */
  byEvidence: NotRepeated[];
  repeat: number;
  shard?: ShardSpec;
  finished: DrillList;
  /** What the summary and the flaky list count: each drill's key, index, attempt and verdict. */
  judged: Iterable<Pick<DrillResult, 'key' | 'index' | 'attempt' | 'verdict'>>;
  stale: readonly StaleReport[];
}

/** What a run reports at its end; expectations judged from the whole plan's scenarios, so every shard names the same statements. */
function runReport(input: RunReportInput): RunReport {
  const { planned, repeat, shard } = input;
  // The plan is what was planned: the drills its evidence left out at run time count in the report, not in the plan's id.
  const notRepeatedInPlan = notRepeatedEntries(input.notRepeated, input.filtered);
  const notRepeated = [...notRepeatedInPlan, ...notRepeatedEntries(input.byEvidence, input.filtered)];
  const judged = [...input.judged];
  const report: RunReport = {
    version: 1,
    harness: harnessInfo(),
    runId: input.runId,
    startedAt: input.startedAt,
    finishedAt: new Date().toISOString(),
    interrupted: input.interrupted,
    summary: summarize(judged),
    stale: input.stale.map((s) => ({
      drillId: s.drillId,
      pid: s.pid,
      startTime: s.startTime,
      cmdline: s.cmdline,
      endedBy: s.endedBy,
      ...(s.containedBy ? { containedBy: s.containedBy } : {}),
    })),
    drills: input.finished,
    ...(shard ? { shard: { index: shard.index, total: shard.total } } : {}),
    plan: {
      id: planFingerprint(
        planned.map((d) => d.key),
        repeat,
        notRepeatedInPlan,
      ),
      drills: planned.length,
      repeat,
    },
    flaky: findFlaky(judged),
    ...(notRepeated.length > 0 ? { notRepeated } : {}),
    requirements: requirementsList(),
  };
  // The drills not repeated included: a scenario all of whose drills were left out still declared its statements.
  const expectation = judgeExpectations(declaredExpectations(input.filtered), input.finished, notRepeated);
  if (expectation) report.expectation = expectation;
  return report;
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
