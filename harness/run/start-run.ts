/**
 * The one run path behind `crash-drill run` and runDrills(); the CLI adds only what a terminal
 * needs (flags, the config file lookup, signals, the exit code).
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadReporters, type ReporterOptions } from '../../reports/load-reporters.js';
import type { Reporter } from '../../reports/types.js';
import { ConfigError, loadScenarios, type Scenario, type SubjectSpec } from '../config/index.js';
import { refuseUnrunnableSubjects } from '../config/index.js';
import { loadBaseline } from '../baseline/load.js';
import { baselineStage } from '../baseline/stage.js';
import { displayPath } from '../util/paths.js';
import { checkedRunsDir } from '../registry/index.js';
import { isRunLive } from '../registry/index.js';
import { leftOutLines, whyNoDrills } from '../plan/explain.js';
import { planRun } from '../plan/plan.js';
import { NoDrillsError } from '../util/errors.js';
import type { DrillConfig } from './drill-config.js';
import { refuseWithoutNetwork } from './network-check.js';
import { runScenarios, type RunOutput } from './run-scenarios.js';

export interface RunRequest extends DrillConfig {
  /** Drill these servers instead of every scenario's own (`--subject`), side by side. */
  subjects?: SubjectSpec[];
  /** The config file the request came from, named in errors. */
  configFile?: string;
  /** Where `only` came from, said back in an error: the CLI passes '--only' for the flag. */
  onlyField?: string;
  /** Where `network` came from, said back in an error: the CLI passes '--network' for the flag. */
  networkField?: string;
  /** `--update-baseline`: rewrite the baseline file from this run (harness/baseline/stage.ts). */
  updateBaseline?: boolean;
  /** Keep every drill's evidence in memory to return it (default true; the CLI, which writes the logs, says false). */
  keepEvidence?: boolean;
  /** Keep every drill's result in memory to return it (default true; the CLI's run says false: harness/run/run-scenarios.ts). */
  keepDrills?: boolean;
  /** Where the run says what it leaves out of the plan and why (the CLI: stderr), one line at a time. */
  warn?: (line: string) => void;
  /** Where terminal reporters print, and the environment they read (GitHub Actions). */
  stdout?: ReporterOptions['stdout'];
  env?: NodeJS.ProcessEnv;
}

/** Drills at once when the config names no number: the phase-aware schedule (harness/run/scheduler.ts). */
export function defaultConcurrency(): 'auto' {
  return 'auto';
}

export async function startRun(request: RunRequest): Promise<RunOutput> {
  // A run registry that is not the user's own refuses the run (RegistryError, exit 3) before anything is loaded or written.
  checkedRunsDir();
  const scenarios = (await scenariosOf(request)).map((s) => (request.network ? { ...s, network: request.network } : s));
  const known = new Set(scenarios.map((s) => s.id));
  const missing = (request.only ?? []).filter((id) => !known.has(id));
  if (missing.length > 0) {
    const flag = request.onlyField?.startsWith('--');
    throw new ConfigError({
      file: flag ? undefined : request.configFile,
      field: request.onlyField ?? 'only',
      message: `no scenario has the id ${missing.map((m) => `"${m}"`).join(', ')}; known: ${[...known].join(', ')}`,
    });
  }
  // Early refusal: a command that cannot run is one config error, before anything starts or is written.
  refuseUnrunnableSubjects(
    scenarios.filter((s) => !request.only?.length || request.only.includes(s.id)),
    (scenario, i) =>
      request.subjects?.length
        ? { field: '--subject', cwdField: '--subject' }
        : {
            file: scenario.file,
            field: scenario.subjects.length > 1 ? `subjects[${i}].command` : 'subject.command',
            cwdField: scenario.subjects.length > 1 ? `subjects[${i}].cwd` : 'subject.cwd',
          },
  );
  const filter = { points: request.points, modes: request.modes, protocol: request.protocol, clientProfiles: request.clientProfiles, only: request.only };
  const plan = planRun(scenarios, filter);
  // Said before anything is written: an empty plan fails with why, unless asked to pass.
  if (plan.drills.length === 0) {
    const { summary, reasons } = whyNoDrills(scenarios, filter, plan);
    if (!request.passWithNoDrills)
      throw new NoDrillsError(`${summary}, and a run of no drills fails (--pass-with-no-drills, or passWithNoDrills, lets it pass)`, reasons);
    for (const line of [`${summary}; the run passes, as asked (pass with no drills)`, ...reasons]) request.warn?.(line);
  } else for (const line of leftOutLines(plan.leftOut.filter((l) => l.chosen))) request.warn?.(`left out ${line}`);
  // Before anything is written or started: a loopback drill never falls back to the host's network.
  const networkField = request.networkField ?? (request.configFile ? `${request.configFile}: network:` : 'network:');
  await refuseWithoutNetwork(
    plan.drills.map((d) => d.scenario),
    request.network ? networkField : undefined,
  );
  const baseline = baselineOf(request);
  const outDir = request.out ? resolve(request.out) : undefined;
  const reporters = await reportersOf(request, outDir);
  // First, so every reporter is handed results the baseline has already marked.
  if (baseline) reporters.unshift(baselineStage(baseline, { shownAs: displayPath(baseline.file), update: request.updateBaseline }));
  if (outDir) {
    rmSync(join(outDir, 'evidence'), { recursive: true, force: true });
    removeDeadSpools(outDir);
  }
  return runScenarios(scenarios, {
    ...filter,
    plan,
    concurrency: request.concurrency ?? defaultConcurrency(),
    client: request.client,
    signal: request.signal,
    outDir,
    evidenceDir: outDir ? join(outDir, 'evidence') : undefined,
    reporters,
    shard: request.shard,
    repeat: request.repeat,
    keepEvidence: request.keepEvidence,
    keepDrills: request.keepDrills,
  });
}

/** The baseline file, read and validated before anything runs or is written (a bad one is exit 3). */
function baselineOf(request: RunRequest) {
  if (!request.baseline) {
    if (request.updateBaseline)
      throw new ConfigError({ field: '--update-baseline', message: 'expected a baseline file to update: give --baseline <file> (or the config key baseline)' });
    return null;
  }
  return loadBaseline(request.baseline, { missingIsEmpty: request.updateBaseline });
}

/** The scenarios of the files and folders named, then the inline ones; ids unique across both. */
async function scenariosOf(request: RunRequest): Promise<Scenario[]> {
  const files = request.scenarios.filter((s): s is string => typeof s === 'string');
  const inline = request.scenarios.filter((s): s is Scenario => typeof s !== 'string');
  let scenarios = [...(files.length > 0 ? await loadScenarios(files, { subjects: request.subjects }) : []), ...inline];
  const ids = scenarios.map((s) => s.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    throw new ConfigError({ file: request.configFile, field: 'scenarios', message: `expected unique scenario ids, got "${twice}" both in a file and inline` });
  const subjects = request.subjects;
  if (subjects?.length) {
    const names = subjects.map((s) => s.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw new ConfigError({ field: '--subject', message: `two subjects are both named "${dup}"; they must differ to be compared` });
    scenarios = scenarios.map((s) => ({ ...s, subject: subjects[0], subjects }));
  }
  return scenarios;
}

/** Named reporters need a report folder: without `out` they are a config error, never silently dropped. */
async function reportersOf(request: RunRequest, outDir: string | undefined): Promise<Reporter[]> {
  const named = (request.reporters ?? []).filter((r): r is string => typeof r === 'string');
  const objects = (request.reporters ?? []).filter((r): r is Reporter => typeof r !== 'string');
  if (!outDir) {
    if (named.length > 0)
      throw new ConfigError({
        file: request.configFile,
        field: 'reporters',
        message: `expected \`out\` (a report folder) with named reporters, got ${named.map((n) => `"${n}"`).join(', ')} and no out`,
      });
    return objects;
  }
  return [...(await loadReporters(named, { outDir, stdout: request.stdout, env: request.env })), ...objects];
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
