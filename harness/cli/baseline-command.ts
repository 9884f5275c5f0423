/**
 * `crash-drill baseline --out <file>` (or `--from <report folder>`): writes every check that did
 * not pass to a baseline `run --baseline` gates on (harness/baseline), keeping written reasons.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { BaselineEntryInfo, RunResults } from '../results/types.js';
import { displayPath } from '../util/paths.js';
import { commandExit, EXIT, UsageError } from '../util/errors.js';
import { addRunFlags, runFlagsOf, SHARED_RUN_FLAGS, type RunFlags } from './run-flags.js';

export const DEFAULT_BASELINE_FILE = 'crash-drill.baseline.json';

export interface BaselineCommandOptions extends Omit<RunFlags, 'out' | 'baseline' | 'updateBaseline'> {
  /** The baseline file to write. */
  out?: string;
  /** Read this report folder's results.json instead of running. */
  from?: string;
  /** The report folder of the run (`crash-drill run --out`). */
  reportOut?: string;
}

type Out = { write(s: string): unknown };

export async function baselineCommand(paths: string[], options: BaselineCommandOptions, err: Out = process.stderr): Promise<number> {
  // Loaded when the command runs, not when the CLI starts (harness/cli/main.ts).
  const [{ collectEntries }, { entryKey, loadBaseline }, { sortEntries, writeBaseline }, { readResults }, { runCommand }] = await Promise.all([
    import('../baseline/collect.js'),
    import('../baseline/load.js'),
    import('../baseline/write.js'),
    import('./report-command.js'),
    import('./run-command.js'),
  ]);
  return commandExit(err, 'baseline', async () => {
    const file = resolve(options.out ?? DEFAULT_BASELINE_FILE);
    // An existing file must be valid before anything runs: its reasons are carried over.
    const old = loadBaseline(file, { missingIsEmpty: true });
    let results: RunResults;
    if (options.from !== undefined) {
      const runOnly = Object.entries({
        paths: paths.length > 0,
        '--point': options.points,
        '--mode': options.modes,
        '--only': options.only,
        '--subject': options.subject,
        '--report-out': options.reportOut,
        '--concurrency': options.concurrency,
        '--reporter': options.reporters,
      })
        .filter(([, v]) => v !== undefined && v !== false)
        .map(([k]) => k);
      if (runOnly.length > 0) throw new UsageError(`--from reads a report folder and runs nothing; ${runOnly.join(', ')} cannot apply`);
      results = readResults(resolve(options.from));
    } else {
      const { out: _file, from: _from, reportOut, ...flags } = options;
      const run = await runCommand(paths, { ...flags, out: reportOut }, { keepDrills: true });
      if (!run.results) return run.code;
      results = run.results;
    }
    const reasons = new Map(old.entries.map((e) => [entryKey(e), e.reason]));
    const entries = sortEntries(collectEntries(results.drills, reasons));
    // Cleanup-expectation statements not met, listed beside the checks (harness/expectation/baseline.ts).
    const { collectStatements, statementKey } = await import('../expectation/baseline.js');
    const statements = collectStatements(results.expectation, new Map((old.statements ?? []).map((e) => [statementKey(e), e.reason])));
    writeBaseline(file, entries, statements);
    err.write(describe(entries, displayPath(file)));
    if (statements.length > 0)
      err.write(
        `crash-drill: baseline: and ${statements.length} cleanup-expectation statement${statements.length === 1 ? '' : 's'} not met (statements); fill in their "reason" too\n`,
      );
    return EXIT.ok;
  });
}

function describe(entries: BaselineEntryInfo[], shown: string): string {
  const count = (v: BaselineEntryInfo['verdict']) => entries.filter((e) => e.verdict === v).length;
  const lines = [
    `crash-drill: baseline: wrote ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} to ${shown} (${count('fail')} fail, ${count('unknown')} unknown, ${count('error')} error); fill in each "reason", commit it, and run with --baseline ${shown}`,
  ];
  const never = count('unknown') + count('error');
  if (never > 0)
    lines.push(
      `crash-drill: baseline: the ${never} unknown and error entr${never === 1 ? 'y is' : 'ies are'} listed for the record but never absorbed: a run still reports them`,
    );
  return `${lines.join('\n')}\n`;
}

export function registerBaselineCommand(program: Command): void {
  const command = program
    .command('baseline')
    .description(
      'write every drill check that did not pass to a baseline file, from a run or a report folder; `run --baseline <file>` then fails only on new failures',
    )
    .argument('[paths...]', "scenario files or folders (default: the config file's scenarios, else scenarios/)")
    .option('--out <file>', `the baseline file to write (default: ${DEFAULT_BASELINE_FILE}); reasons already in it are kept`)
    .option('--from <dir>', "read this report folder's results.json instead of running the drills")
    .option('--report-out <dir>', 'report folder of the run (default: crash-drill-report)');
  addRunFlags(command, SHARED_RUN_FLAGS).action(
    async (paths: string[], parsed: Record<string, unknown> & Pick<BaselineCommandOptions, 'out' | 'from' | 'reportOut'>) => {
      // The table's `out` is the report folder; this command's --out is the baseline file.
      const { out, from, reportOut } = parsed;
      process.exitCode = await baselineCommand(paths, { ...runFlagsOf(parsed), out, from, reportOut });
    },
  );
}
