/**
 * Shared plumbing of the observer tests: spawn real processes, identified at once and handed to
 * the suite's cleaner (test/support/cleanup.ts), which ends them by identity afterwards.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import { identify, readStat, type ProcIdentity } from '../../harness/observe/index.js';
import type { Cleanup } from '../support/cleanup.js';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

export type Proc = { child: ChildProcess; id: ProcIdentity; lines: AsyncIterator<string>; nextLine(timeoutMs?: number): Promise<string> };

/** Spawn and identify at once; stdout is read line by line. */
export function start(cleanup: Cleanup, command: string, args: string[], opts: SpawnOptions = {}): Proc {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], ...opts });
  if (child.pid === undefined) throw new Error(`spawn ${command} failed`);
  const id = identify(child.pid);
  if (!id) throw new Error(`${command} exited before it could be identified`);
  cleanup.track(id);
  const lines: AsyncIterator<string> = child.stdout
    ? createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    : { next: async () => ({ done: true, value: undefined }) };
  const nextLine = async (timeoutMs = 20_000): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no line from ${command} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const r = await Promise.race([lines.next(), timeout]);
      if (r.done) throw new Error(`${command} closed stdout`);
      return r.value;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, id, lines, nextLine };
}

export function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  // A marker inherited from whoever runs the tests must not leak into unrelated fixtures.
  if (!('CRASH_DRILL_RUN' in extra)) delete env.CRASH_DRILL_RUN;
  return env;
}

export function stateOf(pid: number): string | null {
  return readStat(pid)?.state ?? null;
}
