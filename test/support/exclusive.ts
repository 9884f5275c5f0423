/**
 * One test at a time across test processes, nested suites included: an exclusive flock(2) on a
 * folder both can see, held by util-linux's `flock` for as long as a callback runs. The holder's
 * stdin is a pipe from this process, so the lock goes when the callback ends or when this process
 * dies, whatever happens.
 *
 * Used for the unprivileged floor case (test/unprivileged/unprivileged.e2e.test.ts): it counts
 * every unattributable uid-65534 daemon, so its two runs (this suite's and the private checkout's,
 * test/unprivileged/private-checkout.e2e.test.ts) must not run beside each other. The folder is the
 * outermost suite's temp folder (FLOOR_LOCK_ENV, set in vitest.config.ts and inherited by the
 * nested suite). A test that uses a path fixed for the whole machine (a uid's default registry,
 * /tmp/crash-drill-<uid>) locks /tmp instead, which every suite on the machine sees.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

export const FLOOR_LOCK_ENV = 'CRASH_DRILL_FLOOR_LOCK';

export async function exclusively<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const release = await holdExclusive(path);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** The same lock, held until the function it gives back is called (for a describe's beforeAll and afterAll). */
export async function holdExclusive(path: string): Promise<() => Promise<void>> {
  const holder = spawn('flock', ['--exclusive', path, 'sh', '-c', 'echo held; exec cat'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  holder.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(holder, 'close');
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once('data', () => resolve());
    holder.once('error', reject);
    holder.once('close', (code, signal) => reject(new Error(`flock --exclusive ${path} ended (${code ?? signal}) before it held the lock: ${stderr.trim()}`)));
  });
  return async () => {
    holder.stdin.end();
    await exited;
  };
}
