/**
 * The baseline: what a plain SDK client pays for the same work as one drill of the bundled
 * well-behaved scenario (spawn, initialize, subscribe, spawn-helper, then the target
 * spawn-helper, then close). No harness: no drill client process, no observer, no evidence.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { identify, pollExit, procState, type ProcIdentity } from '../harness/observe/index.js';
import { BenchError } from './errors.js';
import type { Phases } from './phases.js';
import { signalIdentity } from '../harness/containment/signal.js';

/** How long a process of a bare run may take to go after close() before it counts as a survivor. */
const LEFTOVER_WAIT_MS = 5_000;

/** Runs the work once; returns its wall-clock time in ms (performance.now(), spawn to close) and its phases. */
export async function runBareSdk(serverScript: string): Promise<{ ms: number; phases: Phases }> {
  const started: ProcIdentity[] = [];
  const t0 = performance.now();
  // stderr 'pipe' (drained below) rather than 'inherit': the drill reads the server's stderr too,
  // and the server's log lines must not interleave with the figures on our stdout/stderr.
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: 'pipe' });
  (transport.stderr as NodeJS.ReadableStream | null)?.resume();
  const client = new Client({ name: 'crash-drill-bench', version: '0.1.0' });
  const marks: number[] = [];
  try {
    await client.connect(transport);
    marks.push(performance.now());
    await client.callTool({ name: 'subscribe', arguments: {} });
    remember(started, helperPid(await client.callTool({ name: 'spawn-helper', arguments: {} })));
    remember(started, helperPid(await client.callTool({ name: 'spawn-helper', arguments: {} })));
    marks.push(performance.now());
  } finally {
    remember(started, transport.pid); // read before close(), which forgets the process
    // close() ends stdin and waits up to 2 s for the exit (SDK client/stdio.js); well-behaved
    // exits on EOF at once, after ending its helpers, so this returns as soon as it is gone.
    await client.close();
    marks.push(performance.now());
    await ensureGone(started);
  }
  const [connected, called, closed] = marks;
  const phases = {
    'server spawn + initialize': connected - t0,
    'subscribe + spawn-helper + target call': called - connected,
    'close (stdin EOF until the server exited)': closed - called,
  };
  return { ms: closed - t0, phases };
}

function remember(list: ProcIdentity[], pid: number | null | undefined): void {
  const id = pid ? identify(pid) : null;
  if (id) list.push(id);
}

/** spawn-helper answers "helper <pid>" (fake-servers/lib/tools.ts). */
function helperPid(result: unknown): number {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  const match = /^helper (\d+)$/.exec(content[0]?.text ?? '');
  if (!match) throw new BenchError('BENCH_BAD_HELPER_ANSWER', `spawn-helper answered ${JSON.stringify(result)}`);
  return Number(match[1]);
}

/**
 * Checks by identity in /proc that the server and its helpers are gone (a zombie counts as gone:
 * kill(pid, 0) succeeds on zombies, the state letter does not lie). Anything still alive after a
 * generous wait is killed, by identity, and the bench stops: its baseline would be wrong.
 */
async function ensureGone(ids: ProcIdentity[]): Promise<void> {
  const survivors: ProcIdentity[] = [];
  for (const id of ids) {
    if (procState(id) !== 'alive') continue;
    if (await pollExit(id, { intervalMs: 5, timeoutMs: LEFTOVER_WAIT_MS })) continue;
    survivors.push(id);
  }
  for (const id of survivors) signalIdentity(id, 'SIGKILL');
  if (survivors.length > 0) {
    const list = survivors.map((s) => `${s.pid} (start ${s.startTime})`).join(', ');
    throw new BenchError('BENCH_SURVIVOR', `the bare SDK run left ${list} alive; killed them`);
  }
}
