/**
 * The run's sentinel, in its own session outside the drill cgroups: EOF on its pipe without "done"
 * means the harness died, and it does the next sweep's work at once, recorded for the next run as
 * `stale`. It waits as perl (sentinel-wait.pl, cheaper than Node) and execs the Node sweep
 * (sentinel-main.ts) only then. It covers what holders cannot: no perl, processes outside a
 * holder's subtree, containers.
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
