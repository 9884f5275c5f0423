/**
 * `npm run bench:schedule`: the engine matrix at concurrency 1 and with the phase-aware
 * schedule, through its vitest file (test/drill/schedule-matrix.bench-test.ts, not in the suite),
 * so the verdicts compared are the ones the suite's table defines. Prints the wall time of
 * each run, their ratio and every drill whose verdicts differ. Then the four SDK matrices
 * (test/{go,java,rust,python}-sdk/matrix.e2e.test.ts) with CRASH_DRILL_MATRIX_TWICE=1: each also
 * one drill at a time, both runs held to the same exact table (test/support/sdk-matrix.ts).
 * Exits 1 when any verdict differs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../harness/util/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'crash-drill-schedule-bench-'));
const out = join(dir, 'result.json');
try {
  const vitest = join(packageRoot(), 'node_modules/vitest/vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', 'test/bench.vitest.config.ts', 'test/drill/schedule-matrix.bench-test.ts'], {
    cwd: packageRoot(),
    env: { ...process.env, CRASH_DRILL_SCHEDULE_BENCH: out },
    encoding: 'utf8',
  });
  let result: { drills: number; oneMs: number; phasedMs: number; differ: string[]; offTable: string[] };
  try {
    result = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    process.stderr.write(`bench:schedule: the matrix did not finish (vitest exit ${run.status})\n${run.stdout}${run.stderr}`);
    process.exit(2);
  }
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`Engine matrix (${result.drills} drills), one at a time vs the phase-aware schedule`);
  console.log(`  concurrency 1:        ${s(result.oneMs)}`);
  console.log(`  phase-aware (auto):   ${s(result.phasedMs)}`);
  console.log(`  ratio:                ${(result.phasedMs / result.oneMs).toFixed(2)}x (aim <= 0.25x)`);
  console.log(`  verdicts that differ: ${result.differ.length}${result.differ.length ? `: ${result.differ.join(', ')}` : ''}`);
  console.log(`  off the truth table at concurrency 1: ${result.offTable.length}${result.offTable.length ? `: ${result.offTable.join(', ')}` : ''}`);
  const sdk = ['go', 'java', 'rust', 'python'].map((lang) => `test/${lang}-sdk/matrix.e2e.test.ts`);
  const t0 = performance.now();
  const twice = spawnSync(process.execPath, [vitest, 'run', ...sdk], {
    cwd: packageRoot(),
    env: { ...process.env, CRASH_DRILL_MATRIX_TWICE: '1' },
    encoding: 'utf8',
  });
  console.log(
    `SDK matrices, one at a time and at the default schedule: ${twice.status === 0 ? 'the same exact table' : 'differ (output below)'} (${s(performance.now() - t0)})`,
  );
  if (twice.status !== 0) process.stdout.write(twice.stdout + twice.stderr);
  process.exitCode = result.differ.length === 0 && run.status === 0 && twice.status === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
