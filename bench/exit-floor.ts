/**
 * The floor under exit detection: how soon the server's own parent learns of its exit, with no
 * harness at all. The bundled well-behaved server is spawned with piped stdio, initialized with
 * one raw `initialize` request (the state the drill kills it in at idle), and its stdin ended;
 * its parent (this process) takes the time of Node's 'exit' event (libuv's SIGCHLD handler and
 * waitpid) minus the server's own exit mark. That span is Node's exit path and the kernel's
 * teardown of the process, which the harness pays too: what the harness adds is its figure
 * minus this one.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { parseExitMark } from '../fake-servers/lib/exit-mark.js';
import { monoNow } from '../harness/util/clock.js';
import { BenchError } from './errors.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'crash-drill-bench', version: '0.1.0' } },
};

/** One exit: mark to 'exit' event, in ms. */
function oneExit(serverScript: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverScript], { stdio: ['pipe', 'pipe', 'pipe'] });
    let text = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => (text += chunk));
    child.on('error', reject);
    child.on('exit', () => {
      const exitAt = monoNow();
      const mark = text
        .split('\n')
        .map(parseExitMark)
        .find((v) => v !== null);
      if (mark === undefined || mark === null) reject(new BenchError('BENCH_NO_EXIT_MARK', `${serverScript} exited without its exit mark`));
      else resolve(exitAt - mark);
    });
    // Its answer to initialize, then end of input: it exits on EOF from the same state as a drill's idle.
    createInterface({ input: child.stdout! }).once('line', () => child.stdin!.end());
    child.stdin!.write(`${JSON.stringify(INITIALIZE)}\n`);
  });
}

/** The floor over `runs` exits, one after another. */
export async function exitFloor(serverScript: string, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) out.push(await oneExit(serverScript));
  return out;
}
