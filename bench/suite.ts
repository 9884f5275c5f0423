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
 *
 * Then the files that cost the most CPU, each with its wall time and how many cores it kept busy:
 * each file's worker writes its own and its waited-for descendants' CPU for that file
 * (test/support/file-cpu.ts, switched on by CRASH_DRILL_FILE_CPU). A file of the private
 * checkout's nested suite is marked `nested`; its CPU is in the outer file's too.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { clockTicksPerSecond } from '../harness/observe/proc.js';
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
  const perFile = join(dir, 'file-cpu.jsonl');
  try {
    const cores = availableParallelism();
    const cpu0 = cpuSnapshot().childrenMs / 1000;
    const m0 = machine();
    const t0 = performance.now();
    const vitest = spawn(
      process.execPath,
      [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
      { cwd: root, stdio: 'inherit', env: { ...process.env, [FILE_CPU_ENV]: perFile } },
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
    printFileCpu(perFile, root, cpu);
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Read by test/support/file-cpu.ts, a setup file of every test file. */
const FILE_CPU_ENV = 'CRASH_DRILL_FILE_CPU';

/** The files that cost the most CPU, from test/support/file-cpu.ts's lines. */
function printFileCpu(perFile: string, root: string, suiteCpu: number): void {
  if (!existsSync(perFile)) {
    console.log('  (no per-file CPU was written)');
    return;
  }
  const hz = clockTicksPerSecond();
  const rows = readFileSync(perFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { file: string | null; start: number; end: number; ownTicks: number; childTicks: number })
    .map((r) => {
      const file = r.file ?? '(unknown)';
      const nested = !file.startsWith(`${root}/`);
      const name = nested ? file.replace(/^.*\/checkout\//, '') : relative(root, file);
      return { name, nested, wall: (r.end - r.start) / 1000, cpu: (r.ownTicks + r.childTicks) / hz, own: r.ownTicks / hz };
    })
    .sort((a, b) => b.cpu - a.cpu);
  const outer = rows.filter((r) => !r.nested).reduce((sum, r) => sum + r.cpu, 0);
  console.log(
    `  CPU by file: ${outer.toFixed(0)} of the suite's ${suiteCpu.toFixed(0)} CPU-s were spent in its files (the rest: vitest itself, loading); cores = CPU / wall:`,
  );
  for (const r of rows.slice(0, 25))
    console.log(
      `    ${r.cpu.toFixed(1).padStart(6)} CPU-s ${r.wall.toFixed(1).padStart(6)} s  ${(r.cpu / Math.max(r.wall, 0.001)).toFixed(2)} cores  worker ${r.own.toFixed(1).padStart(5)} s  ${r.nested ? 'nested ' : ''}${r.name}`,
    );
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
