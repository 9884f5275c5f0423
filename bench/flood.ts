/**
 * One flood drill of bench.ts section 6, in a process of its own so its peak RSS is the
 * harness's alone: dist/fake-servers/floods.js floods inside its tool call (FAKE_FLOOD), one
 * after-response/crash drill with the default record bounds, then one JSON line: peak RSS,
 * evidence size, wall time, verdict and the stdout-clean summary.
 * `node dist/bench/flood.js <FAKE_FLOOD spec>` (for example stdout:1000000000).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario } from '../harness/config/index.js';
import { chainEvents } from '../harness/evidence/log.js';
import { planRun } from '../harness/plan/plan.js';
import { runPlan } from '../harness/run/run-plan.js';

const FLOODS = fileURLToPath(new URL('../fake-servers/floods.js', import.meta.url));

export interface FloodFigure {
  flood: string;
  peakRssMb: number;
  evidenceBytes: number;
  ms: number;
  verdict: string;
  stdoutClean: string;
}

async function main(): Promise<void> {
  const flood = process.argv[2] ?? 'stdout:1000000000';
  const dir = await mkdtemp(join(tmpdir(), 'crash-drill-bench-flood-'));
  try {
    const file = join(dir, 'flood.yaml');
    const yaml = [
      'id: flood',
      `subject: { command: node, args: [${JSON.stringify(FLOODS)}], env: { FAKE_FLOOD: "${flood}" } }`,
      'target: { call: flood }',
      'points: [after-response]',
      'modes: [crash]',
      'timeouts: { point: 600000 }',
    ].join('\n');
    await writeFile(file, yaml);
    const t0 = performance.now();
    const run = await runPlan(planRun([parseScenario(yaml, file)]), { concurrency: 1 });
    const ms = performance.now() - t0;
    const drill = run.results.drills[0]!;
    const log = `${chainEvents(run.evidence[0]!.events).lines.join('\n')}\n`;
    const figure: FloodFigure = {
      flood,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      evidenceBytes: Buffer.byteLength(log),
      ms,
      verdict: drill.verdict,
      stdoutClean: drill.checks.find((c) => c.id === 'stdout-clean')?.summary.slice(0, 80) ?? '',
    };
    process.stdout.write(`${JSON.stringify(figure)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`flood bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
