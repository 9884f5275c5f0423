#!/usr/bin/env node
/**
 * The crash-drill CLI. Only command definitions load up front; a command's own code is imported
 * when it runs, so `verify`, `report` or `--help` do not pay for the engine, remote and SDK.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { CLIENT_KINDS } from '../drill/client/client-kinds.js';
import { KILL_MODES, KILL_POINTS, NETWORK_CHOICES, PROTOCOL_CHOICES } from '../config/index.js';
import { parseProfile, PROFILE_NAMES } from '../client-profiles/profiles.js';
import { harnessInfo } from '../util/version.js';
import type { ReportCommandOptions } from './report-command.js';
import type { RunCommandOptions } from './run-command.js';
import { addShardOptions, registerMergeCommand, shardArg } from './shard-options.js';
import { registerSurveyCommand } from './survey-command.js';
import { registerInitCommand } from './init-command.js';
import { registerOrphanCommands } from './orphans-command.js';
import { registerBaselineCommand } from './baseline-command.js';
import { EXIT, reportUncaught } from '../util/errors.js';

function listOf(allowed: readonly string[], what: string) {
  return (value: string, previous: string[] = []) => {
    const items = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const item of items) {
      if (!allowed.includes(item)) throw new InvalidArgumentError(`unknown ${what} "${item}"; expected one of ${allowed.join(', ')}`);
    }
    return [...previous, ...items];
  };
}

/** `--client-profile`: names, each optionally @<version> or @<range>, to canonical refs (once each). */
function profileList(value: string, previous: string[] = []): string[] {
  const refs = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const parsed = parseProfile(item);
      if (!parsed.ok) throw new InvalidArgumentError(parsed.message);
      return parsed.ref;
    });
  return [...new Set([...previous, ...refs])];
}

function oneOf(allowed: readonly string[], what: string) {
  return (value: string) => {
    if (!allowed.includes(value)) throw new InvalidArgumentError(`unknown ${what} "${value}"; expected one of ${allowed.join(', ')}`);
    return value;
  };
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return n;
}

const program = new Command('crash-drill')
  .description('Crash drills for MCP stdio servers: kill the client at scripted points and judge what the server leaves behind.')
  .version(harnessInfo().version)
  .exitOverride()
  // Program options only before a command: `init` passes what follows its server command
  // through to the server (commander requires this for passThroughOptions).
  .enablePositionalOptions()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

const commaList = (v: string, p: string[] = []) => [
  ...p,
  ...v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
];
const REPORTER_HELP = 'reporters: console, json, junit, markdown, html, or a module path; repeatable or comma-separated (json is always on)';

/** The options of a run, shared by `run` and `baseline` (which names its own --out). */
function addRunOptions(command: Command): Command {
  command
    .option('--point <points>', `kill points to drill (${KILL_POINTS.join(', ')}); repeatable or comma-separated`, listOf(KILL_POINTS, 'kill point'))
    .option('--mode <modes>', `kill modes to drill (${KILL_MODES.join(', ')}); repeatable or comma-separated`, listOf(KILL_MODES, 'kill mode'))
    .option(
      '--protocol <era>',
      `protocol era for every drill: ${PROTOCOL_CHOICES.join(', ')} (auto probes with server/discover and falls back to initialize)`,
      oneOf(PROTOCOL_CHOICES, 'protocol'),
    )
    .option(
      '--network <network>',
      `the servers' network: ${NETWORK_CHOICES.join(', ')} (loopback: a network namespace where only loopback exists and the drill remote is reachable; the run refuses where none can be made; default: each scenario's, else host)`,
      oneOf(NETWORK_CHOICES, 'network'),
    )
    .option(
      '--client-profile <names>',
      `the clients whose spawn, stop and crash each drill reproduces, once per profile: ${PROFILE_NAMES.join(', ')}, each the newest behaviour read or <name>@<version or range> (crash-drill profiles lists them); repeatable or comma-separated (default: the scenario's, else ts-sdk)`,
      profileList,
    )
    .option('--only <ids>', 'only the scenarios with these ids; repeatable or comma-separated', commaList)
    .option('--concurrency <n>', 'drills in flight at most (default: phase-aware, a CPU slot per core while drills start or are contained)', positiveInt)
    .option(
      '--client <kind>',
      `the drill client: ${CLIENT_KINDS.join(', ')} (inprocess: the SDK client runs in the harness over the server's pipes)`,
      oneOf(CLIENT_KINDS, 'client'),
    )
    .option('--config <path>', 'config file (default: crash-drill.config.{ts,mts,js,mjs} in the working folder)')
    .option('--reporter <names>', `${REPORTER_HELP}; default: markdown and html, unless the config names its reporters`, commaList)
    .option(
      '--subject <command>',
      "drill this server instead of the scenarios' own (a command line); repeat it to compare servers side by side",
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--call <tool>', 'with --subject alone (no scenarios): also drill the points a call of this tool reaches (pre-dispatch, in-flight, after-response)')
    .option('--args <json>', "the --call's arguments, a JSON object (default {})")
    .option('--pass-with-no-drills', 'a run whose plan holds no drill passes (exit 0) instead of failing (exit 1)');
  return addShardOptions(command);
}

const run = program
  .command('run')
  .description('run the drills of scenario files or folders (default: scenarios/)')
  .argument('[paths...]', "scenario files or folders (default: the config file's scenarios, else scenarios/)")
  .option('--out <dir>', 'report folder (default: crash-drill-report)')
  .option('--baseline <file>', 'known failures (written by `crash-drill baseline`): listed ones do not fail the run; new ones and entries that now pass do')
  .option('--update-baseline', 'rewrite the --baseline file from this run (new failures added, entries that now pass removed, reasons kept)');
addRunOptions(run).action(async (paths: string[], options: RunCommandOptions) => {
  const { runCommand } = await import('./run-command.js');
  process.exitCode = await runCommand(paths, options);
});
registerBaselineCommand(program, addRunOptions);

program
  .command('requirements')
  .description('list the requirement each check and statement tests: the MCP spec (MUST, SHOULD), the conformance suite, or practice')
  .option('--json', 'as JSON: { checks: [{ id, requirement }], statements: [...] }')
  .action(async (options: { json?: boolean }) => {
    const { requirementsCommand } = await import('./requirements-command.js');
    process.exitCode = requirementsCommand(options);
  });

program
  .command('profiles')
  .description('list the client profiles: each version range read, its steps (spawn, env, stop, crash, abandon) and the source of each, or unsourced')
  .option('--json', 'as JSON: { profiles: [{ name, client, behaviours: [{ ref, versions, steps, sources }] }] }')
  .action(async (options: { json?: boolean }) => {
    const { profilesCommand } = await import('./profiles-command.js');
    process.exitCode = profilesCommand(options);
  });

program
  .command('verify')
  .description('recompute the hash chain of evidence logs (a file, an evidence folder or a report folder)')
  .argument('<path>', 'an evidence log, an evidence folder or a report folder')
  .action(async (path: string) => {
    const { verifyCommand } = await import('./verify-command.js');
    process.exitCode = await verifyCommand(path);
  });

program
  .command('check')
  .description('judge saved evidence logs again, without starting anything (each chain is verified first)')
  .argument('<path>', 'an evidence log, an evidence folder or a report folder')
  .action(async (path: string) => {
    const { checkCommand } = await import('./check-command.js');
    process.exitCode = await checkCommand(path);
  });

program
  .command('report')
  .description("render the reports again from a report folder's results.json, without running anything")
  .argument('<folder>', 'a report folder (holding results.json)')
  .option('--reporter <names>', REPORTER_HELP, commaList)
  .option('--out <dir>', 'where to write the reports (default: the report folder itself)')
  .action(async (folder: string, options: ReportCommandOptions) => {
    const { reportCommand } = await import('./report-command.js');
    process.exitCode = await reportCommand(folder, options);
  });

registerMergeCommand(program);
registerInitCommand(program);
registerOrphanCommands(program);
registerSurveyCommand(program, listOf, shardArg, oneOf);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // --help and --version end here too, with exit code 0.
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    // A user error no command caught (a bad CRASH_DRILL_CLIENT, say) is still the user's: exit 3.
    process.exitCode = reportUncaught(process.stderr, error);
  }
}
