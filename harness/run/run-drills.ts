/**
 * `runDrills()`: the one run path behind `crash-drill run` and the library. It loads the scenarios,
 * refuses what cannot run before anything starts or is written, makes the plan, loads the
 * reporters, and runs the plan (run-plan.ts). The CLI adds only what a terminal needs (flags, the
 * config file lookup, signals, the exit code: harness/cli/run-command.ts).
 */
import { resolve } from 'node:path';
import { loadReporters } from '../../reports/load-reporters.js';
import type { Reporter } from '../../reports/types.js';
import { loadBaseline } from '../baseline/load.js';
import { baselineStage } from '../baseline/stage.js';
import { ConfigError, loadScenarios, refuseUnrunnableSubjects, type Scenario } from '../config/index.js';
import { leftOutLines, whyNoDrills } from '../plan/explain.js';
import { planRun } from '../plan/plan.js';
import { runsDir } from '../registry/index.js';
import { NoDrillsError } from '../util/errors.js';
import { displayPath } from '../util/paths.js';
import { findConfigFile, loadConfigFile } from './config-file.js';
import { refuseWithoutNetwork } from './network-check.js';
import { runPlan, type RunOptions, type RunOutput } from './run-plan.js';

/** Runs the drills of these options, or of the config file the CLI would read, and returns results and evidence. */
export async function runDrills(given?: RunOptions): Promise<RunOutput> {
  // A run registry that is not the user's own refuses the run (RegistryError, exit 3) before anything is loaded or written.
  runsDir();
  const options = given ?? (await configFileOptions());
  const scenarios = (await scenariosOf(options)).map((s) => (options.network ? { ...s, network: options.network } : s));
  const known = new Set(scenarios.map((s) => s.id));
  const missing = (options.only ?? []).filter((id) => !known.has(id));
  if (missing.length > 0) {
    const flag = options.onlyField?.startsWith('--');
    throw new ConfigError({
      file: flag ? undefined : options.configFile,
      field: options.onlyField ?? 'only',
      message: `no scenario has the id ${missing.map((m) => `"${m}"`).join(', ')}; known: ${[...known].join(', ')}`,
    });
  }
  // Early refusal: a command that cannot run is one config error, before anything starts or is written.
  refuseUnrunnableSubjects(
    scenarios.filter((s) => !options.only?.length || options.only.includes(s.id)),
    (scenario, i) =>
      options.subjects?.length
        ? { field: '--subject', cwdField: '--subject' }
        : {
            file: scenario.file,
            field: scenario.subjects.length > 1 ? `subjects[${i}].command` : 'subject.command',
            cwdField: scenario.subjects.length > 1 ? `subjects[${i}].cwd` : 'subject.cwd',
          },
  );
  const plan = planRun(scenarios, options);
  // Said before anything is written: an empty plan fails with why, unless asked to pass.
  if (plan.drills.length === 0) {
    const { summary, reasons } = whyNoDrills(scenarios, options, plan);
    if (!options.passWithNoDrills)
      throw new NoDrillsError(`${summary}, and a run of no drills fails (--pass-with-no-drills, or passWithNoDrills, lets it pass)`, reasons);
    for (const line of [`${summary}; the run passes, as asked (pass with no drills)`, ...reasons]) options.warn?.(line);
  } else for (const line of leftOutLines(plan.leftOut.filter((l) => l.chosen))) options.warn?.(`left out ${line}`);
  // Before anything is written or started: a loopback drill never falls back to the host's network.
  const networkField = options.networkField ?? (options.configFile ? `${options.configFile}: network:` : 'network:');
  await refuseWithoutNetwork(
    plan.drills.map((d) => d.scenario),
    options.network ? networkField : undefined,
  );
  const baseline = baselineOf(options);
  const reporters = await reportersOf(options);
  // First, so every reporter is handed results the baseline has already marked.
  if (baseline) reporters.unshift(baselineStage(baseline, { shownAs: displayPath(baseline.file), update: options.updateBaseline }));
  return runPlan(plan, { ...options, reporters });
}

async function configFileOptions(): Promise<RunOptions> {
  const file = findConfigFile(process.cwd());
  if (!file) throw new ConfigError({ message: `runDrills(): no config given and no crash-drill.config.{ts,mts,js,mjs} in ${process.cwd()}` });
  return { ...(await loadConfigFile(file)), configFile: file };
}

/** The baseline file, read and validated before anything runs or is written (a bad one is exit 3). */
function baselineOf(options: RunOptions) {
  if (!options.baseline) {
    if (options.updateBaseline)
      throw new ConfigError({ field: '--update-baseline', message: 'expected a baseline file to update: give --baseline <file> (or the config key baseline)' });
    return null;
  }
  return loadBaseline(options.baseline, { missingIsEmpty: options.updateBaseline });
}

/** The scenarios of the files and folders named, then the inline ones; ids unique across both. */
async function scenariosOf(options: RunOptions): Promise<Scenario[]> {
  const files = options.scenarios.filter((s): s is string => typeof s === 'string');
  const inline = options.scenarios.filter((s): s is Scenario => typeof s !== 'string');
  let scenarios = [...(files.length > 0 ? await loadScenarios(files, { subjects: options.subjects }) : []), ...inline];
  const ids = scenarios.map((s) => s.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice)
    throw new ConfigError({ file: options.configFile, field: 'scenarios', message: `expected unique scenario ids, got "${twice}" both in a file and inline` });
  const subjects = options.subjects;
  if (subjects?.length) {
    const names = subjects.map((s) => s.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) throw new ConfigError({ field: '--subject', message: `two subjects are both named "${dup}"; they must differ to be compared` });
    scenarios = scenarios.map((s) => ({ ...s, subject: subjects[0], subjects }));
  }
  return scenarios;
}

/** Named reporters need a report folder: without `out` they are a config error, never silently dropped. */
async function reportersOf(options: RunOptions): Promise<Reporter[]> {
  const named = (options.reporters ?? []).filter((r): r is string => typeof r === 'string');
  const objects = (options.reporters ?? []).filter((r): r is Reporter => typeof r !== 'string');
  if (!options.out) {
    if (named.length > 0)
      throw new ConfigError({
        file: options.configFile,
        field: 'reporters',
        message: `expected \`out\` (a report folder) with named reporters, got ${named.map((n) => `"${n}"`).join(', ')} and no out`,
      });
    return objects;
  }
  return [...(await loadReporters(named, { outDir: resolve(options.out), stdout: options.stdout, env: options.env })), ...objects];
}
