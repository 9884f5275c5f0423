/**
 * Whether a run's harness still runs, by flock(LOCK_EX) on its registration (run-lock.pl): the
 * kernel drops it however the harness dies, and it looks the same from every PID namespace, which
 * a pid does not. The descriptor is O_CLOEXEC, so no child inherits it. Without perl, the pid is judged.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../util/paths.js';
import { findPerl, perlFile } from '../util/perl.js';

let runLock: string | undefined;

/** run-lock.pl's text, read at the first use: loading the registry reads no file (`crash-drill --version` loads it). */
export function runLockScript(): string {
  runLock ??= perlFile(join(packageRoot(), 'harness', 'registry', 'run-lock.pl'));
  return runLock;
}

/** What a probe of a registration's lock says: held (its run is live), free (dead), or unknown. */
export type LockState = 'held' | 'free' | 'unknown';

/** Takes the exclusive lock on `fd` for the open file description; false without perl or when it is taken. */
export function takeLock(fd: number): boolean {
  const perl = findPerl();
  if (!perl) return false;
  return spawnSync(perl, ['-e', runLockScript(), 'take'], { stdio: [fd, 'ignore', 'ignore'] }).status === 0;
}

/** Probes each descriptor's lock in one perl; null without perl. */
export function probeLocks(fds: number[]): LockState[] | null {
  const perl = findPerl();
  if (!perl) return null;
  const out: LockState[] = [];
  // A few hundred descriptors a perl: the batch is one argument list and one stdio array.
  for (let i = 0; i < fds.length; i += 200) {
    const batch = fds.slice(i, i + 200);
    const r = spawnSync(perl, ['-e', runLockScript(), 'probe', String(batch.length)], { stdio: ['ignore', 'pipe', 'ignore', ...batch], encoding: 'utf8' });
    const letters = r.status === 0 ? r.stdout : '';
    batch.forEach((_, j) => {
      const c = letters[j];
      out.push(c === 'h' ? 'held' : c === 'f' ? 'free' : 'unknown');
    });
  }
  return out;
}

/** Resolves true once nobody holds the lock on `fd` (waited for, not polled), false after `timeoutMs` or without perl. */
export function whenLockFree(fd: number, timeoutMs: number): Promise<boolean> {
  const perl = findPerl();
  if (!perl) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(perl, ['-e', runLockScript(), 'wait', String(Math.max(1, Math.round(timeoutMs)))], { stdio: [fd, 'ignore', 'ignore'] });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}
