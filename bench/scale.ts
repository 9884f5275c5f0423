/**
 * `npm run bench:scale`: what a big run costs. N drills of a fast well-behaved server (N / 8
 * scenarios × idle, pre-dispatch, in-flight, after-response × crash, close), run by the real CLI
 * with every reporter; prints the wall time, the harness's peak RSS (read in the CLI's own
 * process at its exit) and the size of each report. `--drills 1000,10000` (default 1000);
 * `--server perl` (default: fake-servers/perl/fast-echo.pl, a few ms a start, so the figures are
 * the harness's) or `--server node` (the SDK's well-behaved fake, about 200 ms of CPU a start).
 * Aims: the peak RSS at 10,000 drills at most 1.5× that at 1,000, and the HTML
 * report at most 20 MB.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const CLI = fileURLToPath(new URL('../bin/crash-drill.js', import.meta.url));
const SERVERS: Record<string, [string, string]> = {
  perl: ['perl', fileURLToPath(new URL('../../fake-servers/perl/fast-echo.pl', import.meta.url))],
  node: ['node', fileURLToPath(new URL('../fake-servers/well-behaved.js', import.meta.url))],
};
/** Loaded into the CLI's process: its peak RSS, printed to stderr at exit. */
const PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('peak-rss-kb '+process.resourceUsage().maxRSS+'\\n'))`;

async function size(path: string): Promise<number> {
  const s = await stat(path).catch(() => null);
  if (!s) return 0;
  if (!s.isDirectory()) return s.size;
  let total = 0;
  for (const name of await readdir(path)) total += await size(join(path, name));
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function run(drills: number, server: [string, string]): Promise<{ ms: number; rssKb: number; sizes: Record<string, number>; last: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'crash-drill-bench-scale-'));
  try {
    for (let i = 0; i < Math.ceil(drills / 8); i++) {
      await writeFile(
        join(dir, `s${i}.yaml`),
        [
          `id: s${i}`,
          // An env of its own per scenario: otherwise every scenario's idle and pre-dispatch drills are
          // the same drill as s0's and the plan runs them once (harness/plan/not-repeated.ts).
          `subject: { command: ${server[0]}, args: [${JSON.stringify(server[1])}], name: well-behaved, env: { BENCH_SCENARIO: s${i} } }`,
          'target: { call: echo, args: { text: hi } }',
          'points: [idle, pre-dispatch, in-flight, after-response]',
          'modes: [crash, close]',
        ].join('\n'),
      );
    }
    const out = join(dir, 'out');
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK, CLI, 'run', dir, '--out', out, '--reporter', 'junit,markdown,html'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((resolve) => child.on('close', resolve));
    const ms = performance.now() - t0;
    const rssKb = Number(/peak-rss-kb (\d+)/.exec(stderr)?.[1] ?? 0);
    const sizes = {
      'results.json': await size(join(out, 'results.json')),
      'report.html': await size(join(out, 'report.html')),
      'report-drills/': await size(join(out, 'report-drills')),
      'junit.xml': await size(join(out, 'junit.xml')),
      'summary.md': await size(join(out, 'summary.md')),
      'evidence/': await size(join(out, 'evidence')),
    };
    return { ms, rssKb, sizes, last: stdout.trimEnd().split('\n').pop() ?? '' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { drills: { type: 'string', default: '1000' }, server: { type: 'string', default: 'perl' } } });
  const server = SERVERS[String(values.server)];
  if (!server) throw new Error(`--server: expected perl or node, got ${values.server}`);
  const counts = String(values.drills)
    .split(',')
    .map((n) => Number(n))
    .filter((n) => Number.isInteger(n) && n > 0);
  console.log(`mcp-crash-drill bench:scale (node ${process.version}): ${values.server} well-behaved drills, the CLI with every reporter`);
  const rss: number[] = [];
  for (const n of counts) {
    const r = await run(n, server);
    rss.push(r.rssKb);
    console.log(`${String(n).padStart(6)} drills: ${(r.ms / 1000).toFixed(1)} s, peak RSS ${(r.rssKb / 1024).toFixed(0)} MB, ${r.last}`);
    console.log(
      `        ${Object.entries(r.sizes)
        .map(([k, v]) => `${k} ${mb(v)}`)
        .join(', ')}`,
    );
  }
  if (rss.length > 1) console.log(`peak RSS, last against first: ${(rss[rss.length - 1] / rss[0]).toFixed(2)}x (aim: at most 1.5x from 1,000 to 10,000)`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:scale failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
