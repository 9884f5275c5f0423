/**
 * One side of the privilege comparison (bench.ts section 5), run in its own process so it can
 * be started as another user: times well-behaved drills (after-response/crash) and the
 * exit-detection latency (idle/crash) under whatever tracking this user gets, and prints one
 * JSON line. `node dist/bench/privilege.js --runs N [--subreaper off]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { exitLatency, runQuiet, timeDrill, wellBehavedScenario } from './drills.js';
import { median } from './stats.js';

const SERVER = fileURLToPath(new URL('../fake-servers/well-behaved.js', import.meta.url));

export type PrivilegeSide = { uid: number; tracking: string[]; drillMs: number; exitLatencyMs: number; runs: number };

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Math.max(1, Number(values.runs) || 5);
  const dir = await mkdtemp(join(tmpdir(), 'crash-drill-bench-priv-'));
  try {
    const drill = await wellBehavedScenario(dir, SERVER, 'after-response');
    await timeDrill(drill); // warm-up, untimed
    const times: number[] = [];
    let tracking: string[] = [];
    for (let i = 0; i < runs; i++) {
      const t = await timeDrill(drill);
      times.push(t.ms);
    }
    const idle = await wellBehavedScenario(dir, SERVER, 'idle');
    const { evidence } = await runQuiet([idle], undefined, 'process', runs * 2);
    const latencies = evidence.map(exitLatency).filter((v): v is number => v !== null);
    const first = evidence[0]?.events.find((e) => e.type === 'tracking');
    if (first && first.type === 'tracking') tracking = first.tracking.methods;
    const side: PrivilegeSide = { uid: process.getuid?.() ?? -1, tracking, drillMs: median(times), exitLatencyMs: median(latencies), runs };
    process.stdout.write(`${JSON.stringify(side)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`privilege bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
