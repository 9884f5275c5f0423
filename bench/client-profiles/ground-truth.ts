/**
 * The independent ground truth for the client profiles (docs/client-profiles.md): for each
 * profile, a client that is not the harness's code (the SDKs' own transports, or a scripted
 * stand-in written from the cited source) starts each server, then stops it and lives on, or
 * dies; what is still alive after the grace is the cell.
 *
 *   npm run bench:client-profiles [-- --profile P ...] [--server S ...] [--situation stop|crash] [--grace-ms N] [--json FILE]
 *
 * Two trials at a time (the machine has 2 cores). The real server runs in `unshare -n` (root
 * only; without it its rows are skipped and the output says so).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROFILE_REFS, type ProfileRef } from '../../harness/client-profiles/profiles.js';
import { ensureInstalled, type Installed, REAL_SERVER } from './setup.js';
import { cell } from './ground-truth-cell.js';
import { inLanes } from '../../harness/util/lanes.js';
import { HOLDER, standInClient } from './stand-ins.js';
import { runTrial, type Situation, type TrialResult } from './trial.js';

const DIST = fileURLToPath(new URL('../../', import.meta.url));

/** The fakes that tell the profiles apart, then the bundled ones the issue names. */
export const FAKES = [
  'launcher-forwards-nothing',
  'launcher-forwards-signals',
  'helper-own-group',
  'helper-own-session',
  'ignores-sigterm-exits-on-eof',
  'exits-on-sigint-only',
  'well-behaved',
  'leaks-child',
  'ignores-sigterm',
] as const;
export const REAL = 'falconer-mcp (real, behind its npm launcher)';
const SITUATIONS: Situation[] = ['stop', 'crash'];

function serverArgv(name: string, installed: Installed): string[] {
  if (name === REAL) return ['unshare', '-n', process.execPath, installed.realLauncher];
  return [process.execPath, `${DIST}fake-servers/${name}.js`];
}

function options(argv: string[]) {
  const all = (flag: string) => argv.flatMap((a, i) => (a === flag ? [argv[i + 1]] : []));
  const profiles = (all('--profile').length ? all('--profile') : [...PROFILE_REFS]) as ProfileRef[];
  for (const p of profiles) if (!PROFILE_REFS.includes(p)) throw new Error(`--profile: expected one of ${PROFILE_REFS.join(', ')}, got "${p}"`);
  const servers = all('--server').length ? all('--server').map((s) => (s === 'real' ? REAL : s)) : [...FAKES, REAL];
  for (const s of servers)
    if (s !== REAL && !(FAKES as readonly string[]).includes(s)) throw new Error(`--server: expected one of ${FAKES.join(', ')}, real; got "${s}"`);
  const situations = (all('--situation').length ? all('--situation') : SITUATIONS) as Situation[];
  for (const s of situations) if (!SITUATIONS.includes(s)) throw new Error(`--situation: expected stop or crash, got "${s}"`);
  const grace = all('--grace-ms')[0];
  const graceMs = grace === undefined ? 2000 : Number(grace);
  if (!Number.isInteger(graceMs) || graceMs < 0) throw new Error(`--grace-ms: expected a whole number of ms, got "${grace}"`);
  return { profiles, servers, situations, graceMs, json: all('--json')[0] };
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  const installed = ensureInstalled();
  const root = process.getuid?.() === 0;
  const servers = root ? opts.servers : opts.servers.filter((s) => s !== REAL);
  if (!root && servers.length < opts.servers.length) process.stderr.write(`skipped ${REAL}: unshare -n needs root\n`);
  const jobs = opts.profiles.flatMap((profile) => servers.flatMap((server) => opts.situations.map((situation) => ({ profile, server, situation }))));
  const results = new Map<string, TrialResult>();
  // Two trials at once (the machine has 2 cores).
  await inLanes(jobs, 2, async (job) => {
    const result = await runTrial({
      holder: HOLDER,
      client: standInClient(job.profile, installed),
      server: serverArgv(job.server, installed),
      situation: job.situation,
      graceMs: opts.graceMs,
      readyMs: 30_000,
      stoppedMs: 30_000,
    });
    results.set(`${job.profile}|${job.server}|${job.situation}`, result);
    process.stderr.write(`${job.profile} × ${job.server} × ${job.situation}: ${cell(result)}${result.stopMs === null ? '' : ` (stop ${result.stopMs} ms)`}\n`);
  });

  for (const situation of opts.situations) {
    console.log(`\n### ${situation}: survivors after the ${situation === 'stop' ? 'stop sequence' : "client's death"} + ${opts.graceMs} ms\n`);
    console.log(`| server | ${opts.profiles.join(' | ')} |`);
    console.log(`| --- | ${opts.profiles.map(() => '---').join(' | ')} |`);
    for (const server of servers) {
      const row = opts.profiles.map((p) => cell(results.get(`${p}|${server}|${situation}`)!));
      console.log(`| ${server === REAL ? `${REAL_SERVER} in unshare -n` : server} | ${row.join(' | ')} |`);
    }
  }
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(Object.fromEntries(results), null, 2)}\n`);
  const errors = [...results.values()].filter((r) => r.error).length;
  if (errors > 0) {
    process.stderr.write(`${errors} trial(s) failed\n`);
    process.exitCode = 1;
  }
}

await main();
