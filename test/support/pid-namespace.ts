/**
 * A private PID namespace for a test's harness (`unshare --pid --fork --mount-proc`, root only):
 * the harness in it sees its own pids and /proc, and registers a pid that means nothing outside.
 * Where unshare is missing or refused (not root, a container without CAP_SYS_ADMIN), the reason.
 */
import { spawnSync } from 'node:child_process';

/** unshare's arguments in front of a command: `--kill-child` ends the namespace with unshare. */
export const UNSHARE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

let why: string | null | undefined;

/** Null when a private PID namespace can be made here, else why not. */
export function noPidNamespace(): string | null {
  if (why !== undefined) return why;
  const r = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), 'sh', '-c', 'echo $$'], { encoding: 'utf8' });
  why =
    r.error !== undefined
      ? `unshare could not be started (${r.error.message})`
      : r.status !== 0 || r.stdout.trim() !== '1'
        ? `unshare --pid --fork --mount-proc is refused here (exit ${r.status}: ${r.stderr.trim().split('\n')[0] ?? ''})`
        : null;
  return why;
}
