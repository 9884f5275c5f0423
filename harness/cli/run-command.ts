import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findConfigFile, loadConfigFile } from '../run/config-file.js';
import type { ProfileRef } from '../client-profiles/profiles.js';
import type { KillMode, KillPoint, NetworkChoice, ProtocolChoice, Scenario, SubjectSpec } from '../config/index.js';
import { subjectScenario } from '../config/index.js';
import type { DrillConfig } from '../run/drill-config.js';
import type { ClientKind } from '../drill/client/drill-client.js';
import type { ShardSpec } from '../plan/shard.js';
import { baselineNotes } from '../baseline/notes.js';
import { runExitCode } from '../results/flaky.js';
import type { RunResults } from '../results/types.js';
import { startRun } from '../run/start-run.js';
import { subjectsFromCommandLines } from '../config/index.js';
import { commandExit, errorMessage, EXIT, SIGNAL_EXIT, UsageError } from '../util/errors.js';

export interface RunCommandOptions {
  point?: KillPoint[];
  mode?: KillMode[];
  /** `--protocol`: overrides every scenario's protocol era. */
  protocol?: ProtocolChoice;
  /** `--network host|loopback`: overrides every scenario's network (docs/network.md). */
  network?: NetworkChoice;
  /** `--client-profile`, repeatable: replaces every scenario's client profiles. */
  clientProfile?: ProfileRef[];
  only?: string[];
  out?: string;
  concurrency?: number;
  /** `--client process|inprocess`. */
  client?: ClientKind;
  /** A config file; default: crash-drill.config.{ts,mts,js,mjs} in the working folder. */
  config?: string;
  reporter?: string[];
  /** `--shard i/n`, parsed by harness/cli/shard-options.ts. */
  shard?: ShardSpec;
  /** `--repeat n`. */
  repeat?: number;
  /** `--subject <command line>`, repeatable: drill these servers instead of the scenarios' own. */
  subject?: string[];
  /** `--call <tool>`: the target call of the scenario of a `--subject` alone. */
  call?: string;
  /** `--args <json>`: that call's arguments, a JSON object. */
  args?: string;
  /** `--pass-with-no-drills`: a plan of no drill passes (exit 0) instead of failing (exit 1). */
  passWithNoDrills?: boolean;
  /** `--baseline <file>`: failures listed there are known (harness/baseline). */
  baseline?: string;
  /** `--update-baseline`: rewrite the baseline file from this run. */
  updateBaseline?: boolean;
}

/**
 * The CLI's defaults where runDrills() has none: scenarios/, a report folder, and reports a person
 * reads; `--reporter` or the config's `reporters` replace them (reports/load-reporters.ts).
 */
const DEFAULT_SCENARIOS = ['scenarios'];
const DEFAULT_OUT = 'crash-drill-report';
const DEFAULT_REPORTERS = ['markdown', 'html'];

/** `crash-drill run`: runDrills()'s path (harness/run/start-run.ts) plus the terminal's part: signals and the exit code. */
export async function runCommand(paths: string[], options: RunCommandOptions): Promise<number> {
  return commandExit(process.stderr, null, async () => (await runFromCommandLine(paths, options)).code);
}

/**
 * The run behind `crash-drill run` and `crash-drill baseline`. With `keepDrills` the results hold
 * the drills; else they stay on disk (harness/results/drill-spool.ts).
 */
export async function runFromCommandLine(
  paths: string[],
  options: RunCommandOptions,
  { keepDrills = false }: { keepDrills?: boolean } = {},
): Promise<{ code: number; results: RunResults | null }> {
  const configFile = options.config ? resolve(options.config) : findConfigFile(process.cwd());
  const config: Partial<DrillConfig> = configFile ? await loadConfigFile(configFile) : {};
  const subjects = options.subject ? subjectsOf(options.subject) : undefined;
  if (options.args !== undefined && options.call === undefined)
    throw new UsageError('--args: expected --call <tool> beside it: they are the call and its arguments');
  const alone = paths.length === 0 && !config.scenarios ? subjectAlone(subjects, options) : undefined;
  if (options.call !== undefined && !alone)
    throw new UsageError(
      `--call: expected a --subject alone (no scenario paths, no config file, no ${DEFAULT_SCENARIOS[0]}/ folder here), whose scenario it completes; a scenario file names its own target:`,
    );
  const scenarios = paths.length > 0 ? paths : (config.scenarios ?? alone ?? DEFAULT_SCENARIOS);
  const configReporters = config.reporters ?? [];
  const controller = new AbortController();
  let caught: NodeJS.Signals | null = null;
  // Interrupted: stop starting drills, contain the active ones, write what we have, then exit.
  const onSignal = (signal: NodeJS.Signals) => {
    if (caught) return;
    caught = signal;
    process.stderr.write(`\ncrash-drill: ${signal} received, containing the active drills...\n`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const { results } = await startRun({
      ...config,
      scenarios,
      points: options.point ?? config.points,
      modes: options.mode ?? config.modes,
      protocol: options.protocol ?? config.protocol,
      network: options.network ?? config.network,
      ...(options.network ? { networkField: '--network' } : {}),
      clientProfiles: options.clientProfile ?? config.clientProfiles,
      only: options.only ?? config.only,
      onlyField: options.only ? '--only' : 'only',
      // Each drill's log is written as it ends: the run need not hold them in memory as well.
      keepEvidence: false,
      keepDrills,
      concurrency: options.concurrency ?? config.concurrency,
      client: options.client ?? config.client,
      out: options.out ?? config.out ?? DEFAULT_OUT,
      // --reporter replaces the config's named reporters; its reporter objects stay.
      reporters: options.reporter
        ? [...options.reporter, ...configReporters.filter((r) => typeof r !== 'string')]
        : config.reporters
          ? configReporters
          : DEFAULT_REPORTERS,
      subjects,
      passWithNoDrills: options.passWithNoDrills ?? config.passWithNoDrills,
      warn: (line) => process.stderr.write(`crash-drill: ${line}\n`),
      shard: options.shard,
      repeat: options.repeat,
      signal: controller.signal,
      configFile: configFile ?? undefined,
      baseline: options.baseline ? resolve(options.baseline) : config.baseline,
      updateBaseline: options.updateBaseline,
    });
    if (caught) return { code: SIGNAL_EXIT[caught] ?? EXIT.harness, results: null };
    if (results.baseline) process.stderr.write(baselineNotes(results.baseline));
    // A flaky drill counts as failed (harness/results/flaky.ts); so does a stale baseline entry.
    return { code: runExitCode(results), results };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** `--subject` alone, with no scenarios here: that server's scenario (harness/config/subject-scenario.ts). */
function subjectAlone(subjects: SubjectSpec[] | undefined, options: RunCommandOptions): Scenario[] | undefined {
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
