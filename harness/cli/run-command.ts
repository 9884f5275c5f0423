import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findConfigFile, loadConfigFile } from '../run/config-file.js';
import type { Scenario, SubjectSpec } from '../config/index.js';
import { subjectScenario } from '../config/index.js';
import type { DrillConfig } from '../run/run-plan.js';
import { baselineNotes } from '../baseline/notes.js';
import { runExitCode } from '../results/flaky.js';
import type { RunResults } from '../results/types.js';
import { runDrills } from '../run/run-drills.js';
import { subjectsFromCommandLines } from '../config/index.js';
import { errorMessage, UsageError } from '../util/errors.js';
import { catchInterrupts } from './interrupts.js';
import type { RunFlags } from './run-flags.js';

/**
 * The CLI's defaults where runDrills() has none: scenarios/, a report folder, and reports a person
 * reads; `--reporter` or the config's `reporters` replace them (reports/load-reporters.ts).
 */
const DEFAULT_SCENARIOS = ['scenarios'];
const DEFAULT_OUT = 'crash-drill-report';
const DEFAULT_REPORTERS = ['markdown', 'html'];

/**
 * `crash-drill run` and the run of `crash-drill baseline`: the config file and the flags made one
 * RunOptions for runDrills() (harness/run/run-drills.ts), plus the terminal's part: signals and the
 * exit code. With `keepDrills` the results hold the drills; else they stay on disk (harness/results/drill-spool.ts).
 */
export async function runCommand(
  paths: string[],
  flags: RunFlags,
  { keepDrills = false }: { keepDrills?: boolean } = {},
): Promise<{ code: number; results: RunResults | null }> {
  const configFile = flags.config ? resolve(flags.config) : findConfigFile(process.cwd());
  const config: Partial<DrillConfig> = configFile ? await loadConfigFile(configFile) : {};
  const subjects = flags.subject ? subjectsOf(flags.subject) : undefined;
  if (flags.args !== undefined && flags.call === undefined)
    throw new UsageError('--args: expected --call <tool> beside it: they are the call and its arguments');
  const alone = paths.length === 0 && !config.scenarios ? subjectAlone(subjects, flags) : undefined;
  if (flags.call !== undefined && !alone)
    throw new UsageError(
      `--call: expected a --subject alone (no scenario paths, no config file, no ${DEFAULT_SCENARIOS[0]}/ folder here), whose scenario it completes; a scenario file names its own target:`,
    );
  const { config: _file, subject: _lines, call: _call, args: _args, reporters: named, ...given } = flags;
  const configReporters = config.reporters ?? [];
  // Interrupted: stop starting drills, contain the active ones, write what we have, then exit.
  const interrupts = catchInterrupts();
  try {
    const { results } = await runDrills({
      ...config,
      // A flag replaces the config's key of the same name.
      ...definedOf(given),
      scenarios: paths.length > 0 ? paths : (config.scenarios ?? alone ?? DEFAULT_SCENARIOS),
      ...(flags.network ? { networkField: '--network' } : {}),
      onlyField: flags.only ? '--only' : 'only',
      // Each drill's log is written as it ends: the run need not hold them in memory as well.
      keepEvidence: false,
      keepDrills,
      out: flags.out ?? config.out ?? DEFAULT_OUT,
      // --reporter replaces the config's named reporters; its reporter objects stay.
      reporters: named ? [...named, ...configReporters.filter((r) => typeof r !== 'string')] : config.reporters ? configReporters : DEFAULT_REPORTERS,
      subjects,
      warn: (line) => process.stderr.write(`crash-drill: ${line}\n`),
      signal: interrupts.signal,
      configFile: configFile ?? undefined,
      baseline: flags.baseline ? resolve(flags.baseline) : config.baseline,
    });
    if (interrupts.caught()) return { code: interrupts.exitCode(), results: null };
    if (results.baseline) process.stderr.write(baselineNotes(results.baseline));
    // A flaky drill counts as failed (harness/results/flaky.ts); so does a stale baseline entry.
    return { code: runExitCode(results), results };
  } finally {
    interrupts.release();
  }
}

/** `--subject` alone, with no scenarios here: that server's scenario (harness/config/subject-scenario.ts). */
function subjectAlone(subjects: SubjectSpec[] | undefined, options: RunFlags): Scenario[] | undefined {
  if (!subjects?.length || existsSync(resolve(DEFAULT_SCENARIOS[0]))) return undefined;
  return [subjectScenario(subjects, process.cwd(), options.call === undefined ? null : { call: options.call, args: argsOf(options.args) })];
}

/** `--args`: a JSON object, the target call's arguments. */
function argsOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args: expected a JSON object such as '{"ms": 10}', got ${JSON.stringify(text)} (${errorMessage(error)})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`--args: expected a JSON object such as '{"ms": 10}', got ${JSON.stringify(text)}`);
  return value as Record<string, unknown>;
}

function subjectsOf(lines: string[]): SubjectSpec[] {
  try {
    return subjectsFromCommandLines(lines, process.cwd());
  } catch (error) {
    throw new UsageError(`--subject: ${errorMessage(error)}`);
  }
}

/** The keys that hold a value: a flag not given leaves the config's key in place. */
function definedOf<T extends object>(given: T): Partial<T> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as Partial<T>;
}
