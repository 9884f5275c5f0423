/**
 * The run's sentinel: one small process per run, in its own session, outside every drill
 * cgroup, whose stdin is a pipe from the harness. "done" ends it quietly; end of file without
 * "done" means the harness died (a CI job killed by its timeout), and it does at once what the
 * next run's start-up sweep would: ends every process that carries this run's marker or sits in
 * one of its drill cgroups (SIGTERM, wait, SIGKILL, each re-identified by start time), and
 * stops this run's labelled containers. What it ended goes into the run's watchdog record, so
 * the next run still reports it under `stale`.
 *
 * While the harness lives the sentinel only waits, so where perl is on PATH it waits as perl
 * (perlWaitScript(), sentinel-wait.pl: about 5 ms of CPU to start, against about 70 ms for Node, which competed with
 * the run's first server for the cores while it loaded) and execs the Node sweep
 * (sentinel-main.ts, `--now`) only once the harness has died. Without perl the Node process
 * waits itself. Either way the command line carries dist/bin/sentinel.js and the run id.
 *
 * The per-drill holders (harness/drill/holder/holder.pl) already end everything below them;
 * the sentinel covers what they cannot: a run without perl (no holders), processes of the run
 * outside a holder's subtree, and containers, which are the engine's children.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { join } from 'node:path';
import { distFile, packageRoot } from '../util/paths.js';
import { findPerl, perlFile } from '../util/perl.js';

export type Sentinel = { release(): void };

const NONE: Sentinel = { release() {} };

let perlWait: string | undefined;

/** The waiting half in perl (sentinel-wait.pl), read at the first use. */
export function perlWaitScript(): string {
  perlWait ??= perlFile(join(packageRoot(), 'harness', 'registry', 'sentinel-wait.pl'));
  return perlWait;
}

/** The sentinel's command: perl waiting in front of the Node sweep, or Node alone. */
export function sentinelCommand(main: string, runId: string, perl: string | null = findPerl()): [string, string[]] {
  return perl ? [perl, ['-e', perlWaitScript(), process.execPath, main, runId, '--now']] : [process.execPath, [main, runId]];
}

export function startSentinel(runId: string): Sentinel {
  const main = distFile('bin/sentinel.js');
  if (!existsSync(main) || process.env.CRASH_DRILL_SENTINEL === 'off') return NONE;
  let child: ChildProcess;
  try {
    // No CRASH_DRILL_RUN of its own: the sentinel is the harness's, never a drill's.
    const env = { ...process.env };
    delete env.CRASH_DRILL_RUN;
    const [command, args] = sentinelCommand(main, runId);
    child = spawn(command, args, { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env });
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
