import { readdirSync, readFileSync } from 'node:fs';

export interface MarkedProcess {
  pid: number;
  marker: string;
  cmdline: string;
}

/** Every process on the machine whose environment carries CRASH_DRILL_RUN (optionally of one run). */
export function markedProcesses(runId?: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // a zombie has exited
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const entry = env.find((e) => e.startsWith('CRASH_DRILL_RUN='));
      if (!entry) continue;
      const marker = entry.slice('CRASH_DRILL_RUN='.length);
      if (runId && !marker.startsWith(`${runId}.`)) continue;
      found.push({ pid: Number(name), marker, cmdline: readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // gone, or not readable: not ours to judge
    }
  }
  return found;
}

/**
 * The command lines of the live processes that are a run's sentinel (harness/run/sentinel.ts):
 * they name dist/bin/sentinel.js and the run id, whether perl waits in front or Node alone.
 */
export function sentinelProcesses(runId: string): Array<{ pid: number; argv: string[] }> {
  const found: Array<{ pid: number; argv: string[] }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue; // a zombie has exited
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0$/, '').split('\0');
      if (argv.some((a) => a.endsWith('bin/sentinel.js')) && argv.includes(runId)) found.push({ pid: Number(name), argv });
    } catch {
      // gone
    }
  }
  return found;
}

/** Polls until the predicate holds (an event we cannot subscribe to: a process appearing). */
export async function until<T>(probe: () => T | undefined | null | false, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
