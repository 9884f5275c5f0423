/**
 * The run's sentinel: one small Node process per run, in its own session, outside every drill
 * cgroup, whose stdin is a pipe from the harness. "done" ends it quietly; end of file without
 * "done" means the harness died (a CI job killed by its timeout), and it does at once what the
 * next run's start-up sweep would: ends every process that carries this run's marker or sits in
 * one of its drill cgroups (SIGTERM, wait, SIGKILL, each re-identified by start time), and
 * stops this run's labelled containers. What it ended goes into the run's watchdog record, so
 * the next run still reports it under `stale`.
 *
 * The per-drill holders (harness/drill/holder-script.ts) already end everything below them;
 * the sentinel covers what they cannot: a run without perl (no holders), processes of the run
 * outside a holder's subtree, and containers, which are the engine's children.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { distFile } from '../util/paths.js';

export type Sentinel = { release(): void };

const NONE: Sentinel = { release() {} };

export function startSentinel(runId: string): Sentinel {
  const main = distFile('bin/sentinel.js');
  if (!existsSync(main) || process.env.CRASH_DRILL_SENTINEL === 'off') return NONE;
  let child: ChildProcess;
  try {
    // No CRASH_DRILL_RUN of its own: the sentinel is the harness's, never a drill's.
    const env = { ...process.env };
    delete env.CRASH_DRILL_RUN;
    child = spawn(process.execPath, [main, runId], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env });
  } catch {
    return NONE;
  }
  child.on('error', () => {});
  // Never what keeps the harness alive.
  child.unref();
  const stdin = child.stdin as Writable | null;
  stdin?.on('error', () => {});
  (stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return {
    release() {
      if (stdin && !stdin.destroyed) stdin.end('done\n');
    },
  };
}
