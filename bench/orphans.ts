/**
 * How long `crash-drill orphans` takes on a machine with 1,000 more processes: it starts 1,000
 * sleeping processes (each with stdin and stdout pipes, as a stdio server has), plus a few real
 * orphans so the expensive part (who holds the other end of each pipe) runs too, times the
 * /proc backend's look (and the ps + lsof backend's, when lsof is installed), then ends every
 * process it started, by identity. Aim: under 300 ms for /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { identify, pollExit, type ProcIdentity } from '../harness/observe/index.js';
import { findOrphans } from '../harness/live-machine/find-orphans.js';
import { DEFAULT_PATTERNS } from '../harness/live-machine/patterns.js';
import { procBackend } from '../harness/live-machine/proc-backend.js';
import { psLsofBackend } from '../harness/live-machine/ps-lsof-backend.js';
import type { Backend } from '../harness/live-machine/types.js';
import { signalIdentity } from '../harness/containment/signal.js';

const COUNT = Number(process.env.BENCH_PROCESSES ?? 1000);
const ROUNDS = 5;

async function main(): Promise<void> {
  const started: ProcIdentity[] = [];
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < COUNT; i++) {
      const child = spawn('sleep', ['3600'], { stdio: ['pipe', 'pipe', 'ignore'] });
      children.push(child);
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      const id = identify(child.pid!);
      if (id) started.push(id);
    }
    // Three orphans: an MCP-looking command whose client (this process) closed its ends.
    for (let i = 0; i < 3; i++) {
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', `mcp-bench-orphan-${i}`], { stdio: ['pipe', 'pipe', 'ignore'] });
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      child.stdin!.destroy();
      child.stdout!.destroy();
      const id = identify(child.pid!);
      if (id) started.push(id);
    }
    process.stdout.write(`${started.length} processes started\n`);
    const time = (backend: Backend) => {
      const ms: number[] = [];
      let found = 0;
      for (let r = 0; r < ROUNDS; r++) {
        const t = performance.now();
        const report = findOrphans(backend, { patterns: DEFAULT_PATTERNS, markers: true, stuckAfterMs: 30_000, all: false });
        ms.push(performance.now() - t);
        found = report.entries.length;
      }
      ms.sort((a, b) => a - b);
      process.stdout.write(
        `orphans (${backend.name}): median ${ms[Math.floor(ROUNDS / 2)]!.toFixed(0)} ms, best ${ms[0]!.toFixed(0)} ms over ${ROUNDS} looks (${found} entries)\n`,
      );
    };
    time(procBackend);
    if (spawnSync('lsof', ['-v']).error === undefined) time(psLsofBackend);
    else process.stdout.write('lsof is not installed: the ps + lsof backend is not timed\n');
  } finally {
    for (const id of started) signalIdentity(id, 'SIGKILL');
    await Promise.all(started.map((id) => pollExit(id, { timeoutMs: 5000 })));
    for (const c of children) c.stdin?.destroy();
    process.stdout.write(`ended all ${started.length}\n`);
  }
}

await main();
