/**
 * The SDK matrices (test/go-sdk, test/java-sdk, test/rust-sdk, test/python-sdk): each drills its
 * scenario folder through the real CLI at the default schedule and must give exactly the file's
 * expected table (and, for the benchmark, once more one drill at a time: sdkMatrixRuns). What differs between the SDKs is data (the expected table, the
 * scenario folder, the era column); this is the code that is the same.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import type { DrillResult } from '../../harness/results/types.js';
import { packageRoot } from '../../harness/util/paths.js';
import { lastLine, runCli } from './cli.js';
import { markedProcesses } from './markers.js';
import { tempDir } from './temp-dir.js';
import { type VerdictRow, verdictTable } from './truth-table.js';

const ROOT = packageRoot();

export interface SdkMatrix {
  /** The scenario folder, from the repository's root (`test/go-sdk/scenarios`); its files name the repository as `../../../`. */
  scenarios: string;
  /** Replaced in every scenario file before `../../../` becomes the root (an interpreter's path). */
  replace?: Record<string, string>;
  /** The era column of a drill's row; by default the era and how it was chosen (eraChosen). */
  era?: (drill: DrillResult) => string;
  /** The truth table: every scenario, point and mode in the scenario files. */
  expected: () => Record<string, VerdictRow>;
  /** What the first test's title says the table covers, e.g. `build × behaviour × point × mode`. */
  dimensions: string;
  /** What it says each row holds; by default `verdicts and eras`. */
  columns?: string;
  /** Each run's test timeout; by default 10 minutes. */
  timeout?: number;
}

/** The era and how it was chosen (`2026-07-28/probed`), as the compiled SDKs' matrices read it. */
const eraChosen = (d: DrillResult): string => `${d.era?.era}/${d.era?.chosenBy}`;

/** A row whose verdict is `fail` when any check fails. */
export function withVerdict(era: string, checks: VerdictRow): VerdictRow {
  return { verdict: Object.values(checks).includes('fail') ? 'fail' : 'pass', era, ...checks };
}

/** The engine checks of a crash or close drill. */
export const loss = (exit: string, survivors: string): VerdictRow => ({ 'exit-on-eof': exit, 'no-survivors': survivors, 'stdout-clean': 'pass' });

/** The checks of a cancel drill. */
export const cancel = (silent: string, stops: string): VerdictRow => ({
  'stdout-clean': 'pass',
  'silent-after-cancel': silent,
  'stops-after-cancel': stops,
  'alive-after-cancel': 'pass',
});

/** The scenario files in a temp folder (removed after the test file: temp-dir.ts), the programs' paths absolute. */
function scenarioCopy(spec: SdkMatrix): string {
  const from = join(ROOT, spec.scenarios);
  const dir = tempDir(`crash-drill-${basename(dirname(spec.scenarios))}-`);
  mkdirSync(join(dir, 'scenarios'));
  for (const name of readdirSync(from)) {
    let text = readFileSync(join(from, name), 'utf8');
    for (const [was, is] of Object.entries(spec.replace ?? {})) text = text.replaceAll(was, is);
    writeFileSync(join(dir, 'scenarios', name), text.replaceAll('../../../', `${ROOT}/`));
  }
  return dir;
}

/**
 * One run of the CLI over the scenarios: no drill unexplained, exactly the expected table (before
 * the summary line, so that a failure names the drills that differ), the summary line the
 * table's, nothing of the run left.
 */
async function runMatrix(
  spec: SdkMatrix,
  args: string[],
  table: (drills: DrillResult[]) => Record<string, VerdictRow>,
): Promise<{ drills: DrillResult[]; out: string }> {
  const dir = scenarioCopy(spec);
  const out = join(dir, 'out');
  const run = await runCli(['run', join(dir, 'scenarios'), '--out', out, ...args]);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  const drills: DrillResult[] = results.drills;
  const unexplained = drills.filter((d) => d.verdict === 'error' || d.verdict === 'unknown').map((d) => `${d.key}: ${d.reason}`);
  expect(unexplained).toEqual([]);
  const expected = spec.expected();
  const actual = table(drills);
  // Each drill whose row differs, with what its checks said.
  const differ = drills
    .filter((d) => {
      const key = `${d.scenario}/${d.point}/${d.mode}`;
      return JSON.stringify(actual[key]) !== JSON.stringify(expected[key]);
    })
    .map((d) => `${d.key}: ${d.checks.map((c) => `${c.id} ${c.verdict}: ${c.summary}`).join(' | ')}`);
  expect(actual, differ.join('\n')).toEqual(expected);
  expect(run.code, run.stderr).toBe(1);
  const failed = Object.values(expected).filter((r) => r.verdict === 'fail').length;
  expect(lastLine(run.stdout)).toBe(`${Object.keys(expected).length - failed} passed, ${failed} failed, 0 unknown`);
  // Nothing of the run remains: containment ended every survivor.
  expect(markedProcesses(results.runId)).toEqual([]);
  return { drills, out };
}

/**
 * Call inside the matrix's describe: the run at the default schedule as one test asserting the
 * whole table exactly; its drills are left in `one`, and its report folder in `out`, for the file's own tests of the evidence.
 * With CRASH_DRILL_MATRIX_TWICE=1 (`npm run bench:schedule` sets it) the matrix also runs one
 * drill at a time, first, and must give the same table: a server's speed, or the load beside it,
 * must not change a verdict. The suite runs it once; the second run is the benchmark's.
 */
export function sdkMatrixRuns(spec: SdkMatrix): { one: DrillResult[]; out: string } {
  const era = spec.era ?? eraChosen;
  const table = (drills: DrillResult[]) => verdictTable(drills, (d) => ({ era: era(d) }));
  const timeout = spec.timeout ?? 600_000;
  const runs = { one: [] as DrillResult[], out: '' };

  if (process.env.CRASH_DRILL_MATRIX_TWICE === '1')
    it(
      `one drill at a time: every ${spec.dimensions} gives exactly the expected ${spec.columns ?? 'verdicts and eras'}`,
      async () => {
        await runMatrix(spec, ['--concurrency', '1'], table);
      },
      timeout,
    );

  it(
    `with the default schedule: every ${spec.dimensions} gives exactly the expected ${spec.columns ?? 'verdicts and eras'}`,
    async () => {
      ({ drills: runs.one, out: runs.out } = await runMatrix(spec, [], table));
    },
    timeout,
  );

  return runs;
}
