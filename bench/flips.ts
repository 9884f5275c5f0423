/**
 * `npm run bench:flips`: verdict flips across `crash-drill run scenarios --repeat N` (default
 * 10), the bundled scenarios through the real CLI with the default schedule. A flip is a drill
 * whose attempts do not all give the same verdict (the run's `flaky` list). Prints the wall
 * time and every flip; exits 1 when there is any.
 *
 *   npm run bench:flips -- --repeat 10 --client inprocess
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunResults } from '../harness/results/types.js';
import { distFile, packageRoot } from '../harness/util/paths.js';
import { BenchError } from './errors.js';

function options(): { repeat: number; client: string | undefined } {
  const spec = { repeat: { type: 'string', default: '10' }, client: { type: 'string' } } as const;
  let values: ReturnType<typeof parseArgs<{ options: typeof spec }>>['values'];
  try {
    values = parseArgs({ options: spec }).values;
  } catch (error) {
    throw new BenchError('BENCH_USAGE', `${(error as Error).message} (options: --repeat N, --client process|inprocess)`);
  }
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 2) throw new BenchError('BENCH_USAGE', `--repeat must be a whole number of at least 2, got ${values.repeat}`);
  return { repeat, client: values.client };
}

function main(): void {
  const { repeat, client } = options();
  const out = mkdtempSync(join(tmpdir(), 'crash-drill-flips-'));
  try {
    const t0 = performance.now();
    const args = [
      distFile('harness/cli/main.js'),
      'run',
      'scenarios',
      '--repeat',
      String(repeat),
      '--out',
      out,
      '--reporter',
      'json',
      ...(client ? ['--client', client] : []),
    ];
    const run = spawnSync(process.execPath, args, { cwd: packageRoot(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const seconds = (performance.now() - t0) / 1000;
    let results: RunResults;
    try {
      results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults;
    } catch {
      throw new BenchError('BENCH_RUN_FAILED', `the run wrote no results (exit ${run.status}): ${run.stderr.trim().split('\n').pop() ?? ''}`);
    }
    const flips = results.flaky ?? [];
    console.log(`Flips: crash-drill run scenarios --repeat ${repeat}${client ? ` --client ${client}` : ''} (default schedule)`);
    console.log(`  drills:      ${results.plan?.drills ?? '?'} x ${repeat} = ${results.drills.length} attempts in ${seconds.toFixed(1)} s`);
    console.log(`  flips:       ${flips.length} (aim 0)`);
    for (const f of flips) console.log(`    ${f.key}: ${f.verdicts.join(', ')}`);
    process.exitCode = flips.length === 0 ? 0 : 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  const code = error instanceof BenchError ? ` [${error.code}]` : '';
  process.stderr.write(`bench:flips failed${code}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof BenchError && error.code === 'BENCH_USAGE' ? 3 : 1;
}
