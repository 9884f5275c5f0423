/**
 * `npm run bench:suite`: the whole test suite (vitest run, as `npm test` runs it after its build
 * steps) and what it cost: wall time, the CPU time of everything it started, and how busy that kept
 * the cores (CPU / (wall x cores)); beside it, how busy the whole machine was (/proc/stat), so load
 * from elsewhere shows. Then the files that took longest, each with its wall time. Exits with
 * vitest's code.
 *
 *   npm run bench:suite                      # the suite
 *   npm run bench:suite -- --project unit    # what follows `--` goes to vitest
 *
 * The CPU is this process's children's (cutime + cstime in /proc/self/stat, which count every
 * descendant that was waited for: vitest, its workers, the drills and their servers). A daemon a
 * drill left and that init reaped is not in it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { packageRoot } from '../harness/util/paths.js';
import { cpuSnapshot } from './cpu-split.js';

/** The machine's busy and total jiffies (/proc/stat's cpu line). */
function machine(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3]! + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

async function main(): Promise<number> {
  const root = packageRoot();
  const dir = mkdtempSync(join(tmpdir(), 'crash-drill-bench-suite-'));
  const report = join(dir, 'vitest.json');
  try {
    const cores = availableParallelism();
    const cpu0 = cpuSnapshot().childrenMs / 1000;
    const m0 = machine();
    const t0 = performance.now();
    const vitest = spawn(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
      { cwd: root, stdio: 'inherit' },
    );
    const code = await new Promise<number>((resolve) => vitest.on('close', (c, signal) => resolve(c ?? (signal ? 128 : 1))));
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSnapshot().childrenMs / 1000 - cpu0;
    const m1 = machine();
    const machineBusy = (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total);
    console.log();
    console.log(`Suite: vitest run ${process.argv.slice(2).join(' ')}`.trimEnd());
    console.log(`  wall:           ${wall.toFixed(1)} s (aim <= 300 s on 2 cores)`);
    console.log(`  CPU:            ${cpu.toFixed(1)} s of the suite's processes`);
    console.log(
      `  busy:           ${((cpu / (wall * cores)) * 100).toFixed(0)}% of ${cores} cores by the suite; the machine was ${(machineBusy * 100).toFixed(0)}% busy`,
    );
    console.log(`  floor:          ${(cpu / cores).toFixed(1)} s (the suite's CPU on ${cores} cores)`);
    let files: Array<{ name: string; ms: number; tests: number }> = [];
    try {
      const results = JSON.parse(readFileSync(report, 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
        testResults: Array<{ name: string; startTime: number; endTime: number; assertionResults: unknown[] }>;
      };
      console.log(`  tests:          ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`);
      files = results.testResults.map((f) => ({ name: relative(root, f.name), ms: f.endTime - f.startTime, tests: f.assertionResults.length }));
    } catch {
      console.log('  (vitest wrote no JSON report)');
    }
    files.sort((a, b) => b.ms - a.ms);
    console.log(`  longest files (of ${files.length}):`);
    for (const f of files.slice(0, 15)) console.log(`    ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name} (${f.tests} tests)`);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:suite failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
