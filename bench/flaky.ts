/**
 * `npm run bench:flaky`: how often the confusion matrices disagree with their truth tables when
 * run again and again. `npm test` runs each matrix once; the repetition lives here. Each run is
 * the test file itself under vitest (one after another, as `npm test` runs it), so what is
 * measured is exactly what the suite asserts. Prints, per matrix, how many runs matched and how
 * long they took, then the flake rate over all runs; exits 1 when any run did not match.
 *
 *   npm run bench:flaky -- --runs 5 --only engine
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../harness/util/paths.js';
import { BenchError } from './errors.js';
import { median } from './stats.js';

const MATRICES = {
  engine: 'test/drill/matrix.e2e.test.ts',
  remote: 'test/drill/remote-matrix.e2e.test.ts',
} as const;
type Matrix = keyof typeof MATRICES;

interface RunOutcome {
  matched: boolean;
  seconds: number;
  /** The first line of each failed assertion, to tell a flake from a real regression. */
  failures: string[];
}

function options(): { runs: number; only: Matrix[] } {
  const spec = { runs: { type: 'string', default: '3' }, only: { type: 'string' } } as const;
  let values: ReturnType<typeof parseArgs<{ options: typeof spec }>>['values'];
  try {
    values = parseArgs({ options: spec }).values;
  } catch (error) {
    throw new BenchError('BENCH_USAGE', `${(error as Error).message} (options: --runs N, --only engine|remote)`);
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new BenchError('BENCH_USAGE', `--runs must be a positive integer, got ${values.runs}`);
  if (values.only !== undefined && !(values.only in MATRICES)) throw new BenchError('BENCH_USAGE', `--only must be engine or remote, got ${values.only}`);
  return { runs, only: values.only ? [values.only as Matrix] : (Object.keys(MATRICES) as Matrix[]) };
}

interface VitestJson {
  numFailedTests: number;
  numPassedTests: number;
  numFailedTestSuites: number;
  testResults: Array<{ message?: string; assertionResults: Array<{ status: string; title: string; failureMessages: string[] }> }>;
}

/** One run of a matrix file under vitest, with its JSON report read back. */
function runOnce(file: string, scratch: string): RunOutcome {
  const root = packageRoot();
  const report = join(scratch, 'vitest.json');
  rmSync(report, { force: true });
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', file, '--reporter=json', `--outputFile=${report}`], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const seconds = (performance.now() - started) / 1000;
  let json: VitestJson;
  try {
    json = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
  } catch {
    return { matched: false, seconds, failures: [`vitest wrote no report (exit ${run.status}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`] };
  }
  const failures = json.testResults.flatMap((f) => [
    ...(f.message ? [f.message.split('\n')[0]] : []),
    ...f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${a.title}: ${(a.failureMessages[0] ?? '').split('\n')[0]}`),
  ]);
  const matched = run.status === 0 && json.numFailedTests === 0 && json.numFailedTestSuites === 0 && json.numPassedTests > 0;
  return { matched, seconds, failures };
}

function main(): void {
  const opts = options();
  const scratch = mkdtempSync(join(tmpdir(), 'crash-drill-flaky-'));
  const say = (line = '') => process.stdout.write(`${line}\n`);
  let runsTotal = 0;
  let mismatches = 0;
  try {
    say(`mcp-crash-drill bench:flaky (node ${process.version}): each confusion matrix ${opts.runs} times, one run after another`);
    for (const matrix of opts.only) {
      const file = MATRICES[matrix];
      const outcomes: RunOutcome[] = [];
      for (let i = 1; i <= opts.runs; i++) {
        const outcome = runOnce(file, scratch);
        outcomes.push(outcome);
        say(`  ${file} run ${i}: ${outcome.matched ? 'matched the table' : 'DID NOT MATCH'} in ${outcome.seconds.toFixed(1)} s`);
        for (const line of outcome.failures) say(`      ${line.slice(0, 200)}`);
      }
      const matched = outcomes.filter((o) => o.matched).length;
      const seconds = outcomes.map((o) => o.seconds);
      say(
        `${matrix} matrix: ${matched} of ${outcomes.length} runs matched; median ${median(seconds).toFixed(1)} s, max ${Math.max(...seconds).toFixed(1)} s per run`,
      );
      runsTotal += outcomes.length;
      mismatches += outcomes.length - matched;
    }
    say(`flake rate: ${mismatches} of ${runsTotal} matrix runs did not match (${((100 * mismatches) / runsTotal).toFixed(1)} %)`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (mismatches > 0) process.exitCode = 1;
}

try {
  main();
} catch (error) {
  const code = error instanceof BenchError ? ` [${error.code}]` : '';
  process.stderr.write(`bench:flaky failed${code}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof BenchError && error.code === 'BENCH_USAGE' ? 3 : 1;
}
