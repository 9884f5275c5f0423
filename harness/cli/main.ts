#!/usr/bin/env node
/**
 * The crash-drill CLI. Only command definitions load up front; a command's own code is imported
 * when it runs, so `verify`, `report` or `--help` do not pay for the engine, remote and SDK.
 */
import { Command, CommanderError } from 'commander';
import { harnessInfo } from '../util/version.js';
import type { ReportCommandOptions } from './report-command.js';
import { registerMergeCommand } from './merge-command.js';
import { addRunFlags, commaList, REPORTER_HELP, runFlagsOf, SHARED_RUN_FLAGS } from './run-flags.js';
import { registerSurveyCommand } from './survey-command.js';
import { registerInitCommand } from './init-command.js';
import { registerOrphanCommands } from './orphans-command.js';
import { registerBaselineCommand } from './baseline-command.js';
import { commandExit, EXIT, reportUncaught } from '../util/errors.js';

const program = new Command('crash-drill')
  .description('Crash drills for MCP stdio servers: kill the client at scripted points and judge what the server leaves behind.')
  .version(harnessInfo().version)
  .exitOverride()
  // Program options only before a command: `init` passes what follows its server command
  // through to the server (commander requires this for passThroughOptions).
  .enablePositionalOptions()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

const run = program
  .command('run')
  .description('run the drills of scenario files or folders (default: scenarios/)')
  .argument('[paths...]', "scenario files or folders (default: the config file's scenarios, else scenarios/)");
addRunFlags(run, ['out', 'baseline', 'updateBaseline', ...SHARED_RUN_FLAGS]).action(async (paths: string[], parsed: Record<string, unknown>) => {
  const { runCommand } = await import('./run-command.js');
  process.exitCode = await commandExit(process.stderr, null, async () => (await runCommand(paths, runFlagsOf(parsed))).code);
});
registerBaselineCommand(program);

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
registerSurveyCommand(program);

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
