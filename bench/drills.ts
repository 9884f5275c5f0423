/**
 * The drill side of the benchmark: scenarios written to a temp folder and parsed like any
 * scenario file, drills run through the programmatic runner, and the figures read back from
 * their evidence.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseScenario, type KillPoint, type Scenario } from '../harness/config/index.js';
import type { ClientKind } from '../harness/drill/client/drill-client.js';
import type { DrillEvidence } from '../harness/evidence/types.js';
import { planRun } from '../harness/plan/plan.js';
import { runPlan, type RunOutput } from '../harness/run/run-plan.js';
import { parseExitMark } from '../fake-servers/lib/exit-mark.js';
import { BenchError } from './errors.js';
import { drillPhases, type Phases } from './phases.js';

/** The bundled scenarios/well-behaved.yaml at one point in crash mode, with an absolute server path. */
export async function wellBehavedScenario(dir: string, serverScript: string, point: KillPoint): Promise<Scenario> {
  const text = [
    `id: bench-well-behaved-${point}`,
    'subject:',
    '  command: node',
    `  args: [${JSON.stringify(serverScript)}]`,
    'setup:',
    '  - call: subscribe',
    '  - call: spawn-helper',
    'target:',
    '  call: spawn-helper',
    `points: [${point}]`,
    'modes: [crash]',
    '',
  ].join('\n');
  const file = join(dir, `well-behaved-${point}.yaml`);
  await writeFile(file, text);
  return parseScenario(text, file);
}

/**
 * Runs the scenarios with no reporter; every drill must pass, or its figures mean nothing.
 * `repeat`: each drill that many times. A scenario given twice is not run twice: at idle its
 * drills are the same drill, which the plan runs once (harness/plan/not-repeated.ts).
 */
export async function runQuiet(scenarios: Scenario[], signal?: AbortSignal, client: ClientKind = 'process', repeat = 1): Promise<RunOutput> {
  const output = await runPlan(planRun(scenarios), { concurrency: 1, reporters: [], signal, client, repeat });
  const bad = output.results.drills.filter((d) => d.verdict !== 'pass');
  if (bad.length > 0) {
    const list = bad.map((d) => `${d.scenario}/${d.point}/${d.mode}: ${d.verdict} (${d.reason})`).join(', ');
    throw new BenchError('BENCH_DRILL_NOT_PASSED', `drills that did not pass: ${list}`);
  }
  return output;
}

/** One drill, timed end to end around runPlan (performance.now()), in ms, with where the time went. */
export async function timeDrill(scenario: Scenario, signal?: AbortSignal, client: ClientKind = 'process'): Promise<{ ms: number; phases: Phases }> {
  const t0 = performance.now();
  const { evidence } = await runQuiet([scenario], signal, client);
  const wall = performance.now() - t0;
  return { ms: wall, phases: drillPhases(evidence[0], wall) };
}

/**
 * Exit-detection latency of one drill: the server-exit event's time (when the harness knew)
 * minus the server's own exit mark on stderr. Both are CLOCK_MONOTONIC ms. Null when either is
 * missing (e.g. the server died without writing its mark).
 */
export function exitLatency(evidence: DrillEvidence): number | null {
  let mark: number | null = null;
  let exitAt: number | null = null;
  for (const event of evidence.events) {
    if (event.type === 'subject-stderr') {
      for (const line of event.text.split('\n')) mark = parseExitMark(line) ?? mark;
    } else if (event.type === 'server-exit') {
      exitAt = event.t;
    }
  }
  return mark === null || exitAt === null ? null : exitAt - mark;
}
