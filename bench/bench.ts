/**
 * `npm run bench`: three figures from one run, printed as plain text with a line saying what
 * each one measured (nothing is written to the repo).
 *   1. drill overhead against a bare SDK client doing the same work, with a client process and
 *      with the in-process client
 *   2. exit-detection latency: the server's own exit time against when the harness knew (both clients)
 *   3. what the drill remote adds, per request and per drill
 *   4. wall time of the bundled run at concurrency 1 and with the phase-aware schedule (client
 *      process and in-process client), the ratio and the verdicts that differ (--skip-bundled
 *      to leave it out); for the client-process runs, the CPU against the run's floor and its
 *      split between the servers, the drill clients, this process and the holders
 *      (bench/cpu-split.ts); flips across repeated runs are bench/flips.ts
 *   5. what running without root costs: drill time and exit detection as uid 65534 (holder,
 *      no cgroup) against root (holder and cgroup), each side in its own process (privilege.ts)
 *   6. a flooding server: the harness's peak RSS and the evidence size for a 1 GB stdout flood,
 *      a 100 MB single line and a 500 MB stderr flood, each drill in its own process (flood.ts;
 *      --skip-floods to leave it out)
 * --only-bundled runs section 4 alone, and of it the phase-aware client-process run alone (its CPU split).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadScenarios } from '../harness/config/index.js';
import type { DrillResult } from '../harness/results/types.js';
import type { ClientKind } from '../harness/drill/client/drill-client.js';
import { planRun } from '../harness/plan/plan.js';
import { runPlan } from '../harness/run/run-plan.js';
import { packageRoot } from '../harness/util/paths.js';
import { runBareSdk } from './bare-sdk.js';
import { exitLatency, runQuiet, timeDrill, wellBehavedScenario } from './drills.js';
import { exitFloor } from './exit-floor.js';
import { BenchError } from './errors.js';
import { allReaped, cpuSnapshot, cpuSplit, type CpuSplit } from './cpu-split.js';
import { medianPhases } from './phases.js';
import { median, ms, percentile } from './stats.js';
import { perDrill, perRequest } from './remote-overhead.js';
import type { FloodFigure } from './flood.js';
import type { PrivilegeSide } from './privilege.js';

/** How long the section waits for the run's last children to be reaped before it reads the CPU. */
const REAP_WAIT_MS = 10_000;

const SERVER = fileURLToPath(new URL('../fake-servers/well-behaved.js', import.meta.url));

function options(): { runs: number; latencyRuns: number; skipBundled: boolean; skipFloods: boolean; onlyBundled: boolean } {
  const spec = {
    runs: { type: 'string', default: '5' },
    'latency-runs': { type: 'string', default: '20' },
    'skip-bundled': { type: 'boolean', default: false },
    'skip-floods': { type: 'boolean', default: false },
    'only-bundled': { type: 'boolean', default: false },
  } as const;
  let values: ReturnType<typeof parseArgs<{ options: typeof spec }>>['values'];
  try {
    values = parseArgs({ options: spec }).values;
  } catch (error) {
    throw new BenchError('BENCH_USAGE', `${(error as Error).message} (options: --runs N, --latency-runs N, --skip-bundled, --skip-floods, --only-bundled)`);
  }
  const count = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new BenchError('BENCH_USAGE', `--${name} must be a positive integer, got ${raw}`);
    return n;
  };
  return {
    runs: count('runs', values.runs!),
    latencyRuns: count('latency-runs', values['latency-runs']!),
    skipBundled: values['skip-bundled']!,
    skipFloods: values['skip-floods']!,
    onlyBundled: values['only-bundled']!,
  };
}

let stdoutGone = false;
const say = (line = ''): void => {
  if (!stdoutGone) process.stdout.write(`${line}\n`);
};

async function overhead(dir: string, runs: number, signal: AbortSignal): Promise<void> {
  const scenario = await wellBehavedScenario(dir, SERVER, 'after-response');
  // One untimed warm-up of each, so neither side pays for a cold file cache alone.
  await runBareSdk(SERVER);
  await timeDrill(scenario, signal, 'process');
  await timeDrill(scenario, signal, 'inprocess');
  const drill: Awaited<ReturnType<typeof timeDrill>>[] = [];
  const inproc: Awaited<ReturnType<typeof timeDrill>>[] = [];
  const bare: Awaited<ReturnType<typeof runBareSdk>>[] = [];
  // Interleaved, so load from other work on the machine falls on every side alike.
  for (let i = 0; i < runs && !signal.aborted; i++) {
    drill.push(await timeDrill(scenario, signal, 'process'));
    inproc.push(await timeDrill(scenario, signal, 'inprocess'));
    bare.push(await runBareSdk(SERVER));
  }
  const drillMs = drill.map((d) => d.ms);
  const inprocMs = inproc.map((d) => d.ms);
  const bareMs = bare.map((b) => b.ms);
  const samples = (v: number[]): string => `[${v.map((x) => x.toFixed(0)).join(', ')}]`;
  say('1. Drill overhead: well-behaved, setup subscribe + spawn-helper, target spawn-helper');
  say(`   (${runs} runs each after one warm-up, interleaved; drill = runPlan end to end at after-response/crash,`);
  say('    bare = SDK StdioClientTransport + Client: spawn, initialize, the same 3 calls, close)');
  say(`   drill, client process median:     ${ms(median(drillMs))}   ${samples(drillMs)}`);
  say(`   drill, in-process client median:  ${ms(median(inprocMs))}   ${samples(inprocMs)}`);
  say(`   bare SDK median:                  ${ms(median(bareMs))}   ${samples(bareMs)}`);
  say(`   ratio, client process:            ${(median(drillMs) / median(bareMs)).toFixed(2)}x`);
  say(`   ratio, in-process client:         ${(median(inprocMs) / median(bareMs)).toFixed(2)}x (aim <= 1.1x)`);
  say('   where the time goes (median per phase, from evidence timestamps / performance.now();');
  say('   for the in-process client "drill client process start" is the holder and stand-in start):');
  for (const [side, phases] of [
    ['proc', medianPhases(drill.map((d) => d.phases))],
    ['inproc', medianPhases(inproc.map((d) => d.phases))],
    ['bare', medianPhases(bare.map((b) => b.phases))],
  ] as const) {
    for (const [name, value] of Object.entries(phases)) say(`     ${side.padEnd(6)} ${name.padEnd(46)} ${ms(value)}`);
  }
  say();
}

async function latency(dir: string, runs: number, signal: AbortSignal): Promise<void> {
  const scenario = await wellBehavedScenario(dir, SERVER, 'idle');
  say('2. Exit-detection latency: well-behaved at idle/crash; server-exit event t minus the');
  say('   server\'s own "crash-drill-fake exit mono=" stderr mark (both CLOCK_MONOTONIC)');
  const medians: Array<[string, number]> = [];
  for (const client of ['process', 'inprocess'] as const) {
    const { evidence } = await runQuiet([scenario], signal, client, runs);
    const samples = evidence.map(exitLatency).filter((v): v is number => v !== null);
    medians.push([client === 'process' ? 'client process' : 'in-process client', median(samples)]);
    say(`   ${client === 'process' ? 'client process' : 'in-process client'}: drills ${evidence.length}, with both timestamps ${samples.length}`);
    say(`     median:          ${ms(median(samples))} (aim <= 3 ms)`);
    say(`     p90:             ${ms(percentile(samples, 90))}`);
    say(`     max:             ${ms(Math.max(...samples))}`);
  }
  const floor = await exitFloor(SERVER, runs);
  say(`   floor, no harness (the same server's own parent: mark to its 'exit' event), ${floor.length} exits:`);
  say(`     median:          ${ms(median(floor))}   (Node's exit path and the kernel's teardown; the harness pays it too)`);
  // What the harness adds to what any parent of the server could know: the medians' difference.
  const over = medians.map(([name, m]) => `${name} ${signed(m - median(floor))}`).join(', ');
  say(`   the harness against that floor (median minus median): ${over}`);
  say();
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '-'}${ms(Math.abs(value))}`;
}

async function remote(dir: string, runs: number, signal: AbortSignal): Promise<void> {
  const request = await perRequest(300);
  const drill = await perDrill(dir, SERVER, runs, signal);
  say('3. Remote overhead');
  say('   per request (300 sequential loopback GET /whoami, keep-alive, medians):');
  say(`     bare node:http:    ${ms(request.bare)}`);
  say(`     drill remote:      ${ms(request.remote)}   (+${ms(request.remote - request.bare)}: auth, journal, process attribution)`);
  say(`   per drill (well-behaved, target write, after-response/crash, ${runs} drills, medians from the evidence):`);
  say(`     revoke + probe with the revoked token:   ${ms(drill.revokeAndProbe)}`);
  say(`     recovery retry (fresh client and server): ${ms(drill.retry)}`);
  say(`     whole drill:                              ${ms(drill.drill)}`);
  say();
}

async function bundled(signal: AbortSignal, splitOnly = false): Promise<void> {
  const scenarios = await loadScenarios([join(packageRoot(), 'scenarios')]);
  say('4. Bundled run: every drill of scenarios/ through runPlan, wall clock');
  const all: Array<[string, { concurrency?: number; client: ClientKind }]> = [
    ['concurrency 1, client process', { concurrency: 1, client: 'process' }],
    ['phase-aware, client process', { client: 'process' }],
    ['phase-aware, in-process client', { client: 'inprocess' }],
  ];
  const runs = splitOnly ? all.slice(1, 2) : all;
  const wall: number[] = [];
  const verdicts: Array<Map<string, string>> = [];
  for (const [name, options] of runs) {
    if (signal.aborted) break;
    // What an earlier section started is reaped first, so the CPU below is this run's alone.
    await allReaped(REAP_WAIT_MS);
    const before = cpuSnapshot();
    const t0 = performance.now();
    const { results, evidence } = await runPlan(planRun(scenarios), { ...options, reporters: [], signal });
    const seconds = (performance.now() - t0) / 1000;
    const unreaped = await allReaped(REAP_WAIT_MS);
    const split = cpuSplit(before, cpuSnapshot(), evidence);
    wall.push(seconds);
    verdicts.push(new Map(results.drills.map((d) => [d.key, d.verdict])));
    const s = results.summary;
    say(
      `   ${name.padEnd(32)} ${seconds.toFixed(1)} s for ${results.drills.length} drills ` +
        `(${s.pass} pass, ${s.fail} fail, ${s.unknown} unknown, ${s.error} error)`,
    );
    say(`     not passed (most by design: each fake server is the oracle of one failure): ${notPassed(results.drills)}`);
    if (options.client === 'process') sayCpu(seconds, results.drills, split, unreaped);
    // An error or unknown is never by design: say why, so it can be told from load.
    for (const d of results.drills)
      if (d.verdict === 'error' || d.verdict === 'unknown') say(`     ${d.scenario}/${d.point}/${d.mode} ${d.verdict}: ${d.reason}`);
  }
  for (let i = 1; i < wall.length; i++) {
    const differ = [...verdicts[0]].filter(([key, verdict]) => verdicts[i].get(key) !== verdict).map(([key]) => key);
    say(
      `   ${runs[i][0]} / concurrency 1: ${(wall[i] / wall[0]).toFixed(2)}x (aim <= 0.25x); verdicts that differ from concurrency 1: ${differ.length}${differ.length ? ` (${differ.join(', ')})` : ''}`,
    );
  }
  say();
}

/** The run's CPU against its floor, and the split between the server, the client, this process and the holders. */
function sayCpu(seconds: number, drills: readonly DrillResult[], split: CpuSplit, unreaped: number[]): void {
  const cores = availableParallelism();
  const longest = Math.max(0, ...drills.map((d) => d.durationMs)) / 1000;
  const cpuS = split.totalMs / 1000;
  const floor = Math.max(longest, cpuS / cores);
  const n = drills.length;
  const part = (label: string, value: number | null): void =>
    say(
      `       ${label.padEnd(44)} ${value === null ? '   n/a' : `${(value / 1000).toFixed(2).padStart(6)} CPU-s  ${(value / n).toFixed(0).padStart(5)} ms/drill`}`,
    );
  say(
    `     CPU ${cpuS.toFixed(2)} s (this process + its reaped descendants); floor max(longest drill ${longest.toFixed(1)} s, ` +
      `CPU / ${cores} cores = ${(cpuS / cores).toFixed(1)} s) = ${floor.toFixed(1)} s; wall / floor ${(seconds / floor).toFixed(2)}x (aim <= 1.2x)`,
  );
  if (unreaped.length > 0) say(`     (${unreaped.length} children not reaped yet: the total misses their CPU)`);
  if (split.cgroupMs === null) {
    say(`     split: ${split.note}`);
    return;
  }
  say(`     split (load ${loadavg()[0].toFixed(1)}${split.note ? `; ${split.note}` : ''}):`);
  part('servers (drill cgroups less the clients)', split.serverMs);
  part('drill clients (from their zombies, 10 ms each)', split.clientMs);
  if (split.unsplitMs) part('server and client, not split (see above)', split.unsplitMs);
  part('harness process (tracking, evidence, schedule)', split.harnessMs);
  part('holders and other processes it started', split.restMs);
}

/** Runs privilege.ts as this user, or as uid 65534 through setpriv; null when that cannot run. */
function privilegeSide(runs: number, asNobody: boolean, env: NodeJS.ProcessEnv = {}): PrivilegeSide | null {
  const script = fileURLToPath(new URL('./privilege.js', import.meta.url));
  const argv = [process.execPath, script, '--runs', String(runs)];
  const [command, args] = asNobody ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...argv]] : [argv[0]!, argv.slice(1)];
  const out = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  const line = out.stdout?.trim().split('\n').pop();
  if (out.status !== 0 || !line) {
    say(`   (${asNobody ? 'uid 65534' : 'this user'} could not run it: ${out.stderr?.trim().split('\n').pop() ?? out.error?.message ?? 'no output'})`);
    return null;
  }
  return JSON.parse(line) as PrivilegeSide;
}

function privilege(runs: number): void {
  say('5. Without root: well-behaved drills (after-response/crash) and exit detection (idle/crash), medians,');
  say(`   each side in its own process (${runs} drills + ${runs * 2} latency drills each)`);
  const root = process.getuid?.() === 0;
  if (!root) say("   (not root here: only this user's side can be measured)");
  const sides: Array<[string, PrivilegeSide | null]> = root
    ? [
        ['root (holder + cgroup)', privilegeSide(runs, false)],
        ['uid 65534 (holder, no cgroup)', privilegeSide(runs, true)],
        ['uid 65534, no holder (floor)', privilegeSide(runs, true, { CRASH_DRILL_SUBREAPER: 'off' })],
      ]
    : [
        ['this user', privilegeSide(runs, false)],
        ['this user, no holder (floor)', privilegeSide(runs, false, { CRASH_DRILL_SUBREAPER: 'off' })],
      ];
  for (const [name, side] of sides) {
    if (!side) continue;
    say(`   ${name.padEnd(32)} drill ${ms(side.drillMs)}   exit detection ${ms(side.exitLatencyMs)}   [${side.tracking.join(', ')}]`);
  }
  const [base, nobody] = [sides[0]?.[1], sides[1]?.[1]];
  if (root && base && nobody)
    say(
      `   unprivileged / root:             drill ${(nobody.drillMs / base.drillMs).toFixed(2)}x   exit detection ${(nobody.exitLatencyMs / base.exitLatencyMs).toFixed(2)}x`,
    );
  say();
}

/** Section 6: each flood drill in its own process (flood.ts), so its peak RSS is the harness's alone. */
function floods(): void {
  say('6. A flooding server (after-response/crash, default record bounds: 200 noise lines, 64 KiB of stderr, 8 KiB a line),');
  say('   each drill in its own process; aim: peak RSS at most 300 MB, evidence at most the bounds plus a few KB');
  const script = fileURLToPath(new URL('./flood.js', import.meta.url));
  for (const [name, flood] of [
    ['1 GB of stdout noise lines', 'stdout:1000000000'],
    ['one 100 MB stdout line', 'line:100000000'],
    ['500 MB of stderr', 'stderr:500000000'],
  ] as const) {
    const out = spawnSync(process.execPath, [script, flood], { encoding: 'utf8', maxBuffer: 1024 * 1024 });
    const line = out.stdout?.trim().split('\n').pop();
    if (out.status !== 0 || !line) {
      say(`   ${name.padEnd(28)} could not run: ${out.stderr?.trim().split('\n').pop() ?? out.error?.message ?? 'no output'}`);
      continue;
    }
    const f = JSON.parse(line) as FloodFigure;
    say(
      `   ${name.padEnd(28)} peak RSS ${f.peakRssMb.toFixed(0).padStart(4)} MB   evidence ${(f.evidenceBytes / 1024).toFixed(1).padStart(6)} KB   ${(f.ms / 1000).toFixed(1).padStart(5)} s   ${f.verdict} (${f.stdoutClean})`,
    );
  }
  say();
}

/** "scenario verdict×n" for every drill that did not pass, so an unexpected one stands out. */
function notPassed(drills: readonly DrillResult[]): string {
  const counts = new Map<string, number>();
  for (const d of drills) if (d.verdict !== 'pass') counts.set(`${d.scenario} ${d.verdict}`, (counts.get(`${d.scenario} ${d.verdict}`) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}×${n}`).join(', ') || 'none';
}

async function main(): Promise<void> {
  const opts = options();
  // Ctrl-C: the runner contains its active drills when aborted; a second one exits at once.
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  // Our own reader went away (`| head`): stop, but let the runner contain its drills first,
  // rather than die of an unhandled EPIPE with drills in flight.
  process.stdout.on('error', () => {
    stdoutGone = true;
    abort.abort();
  });
  const dir = await mkdtemp(join(tmpdir(), 'crash-drill-bench-'));
  try {
    say(`mcp-crash-drill bench (node ${process.version}, pid ${process.pid})`);
    say();
    if (opts.onlyBundled) await bundled(abort.signal, true);
    else {
      await overhead(dir, opts.runs, abort.signal);
      await latency(dir, opts.latencyRuns, abort.signal);
      await remote(dir, opts.runs, abort.signal);
      if (opts.skipBundled) say('4. Bundled run: skipped (--skip-bundled)');
      else await bundled(abort.signal);
      if (!abort.signal.aborted) privilege(opts.runs);
      if (opts.skipFloods) say('6. Floods: skipped (--skip-floods)');
      else if (!abort.signal.aborted) floods();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (abort.signal.aborted) {
    process.stderr.write('bench interrupted: the figures above (if any) are incomplete\n');
    process.exitCode = 130;
  }
}

main().catch((error: unknown) => {
  const code = error instanceof BenchError ? ` [${error.code}]` : '';
  process.stderr.write(`bench failed${code}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof BenchError && error.code === 'BENCH_USAGE' ? 3 : 1;
});
