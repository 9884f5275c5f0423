import { spawn, type ChildProcess } from 'node:child_process';
import { createRemote, type DrillRemote, type RemoteOptions } from '../../harness/remote/index.js';
import type { JournalEvent } from '../../harness/remote/types.js';
import { readStat as readProcStat } from '../../harness/observe/proc.js';

const remotes: DrillRemote[] = [];
const children: Array<{ child: ChildProcess; pid: number; startTime: number }> = [];

/** A remote closed by cleanup(); call cleanup() from afterEach. */
export async function startRemote(options?: RemoteOptions): Promise<DrillRemote> {
  const remote = await createRemote(options);
  remotes.push(remote);
  return remote;
}

/** A real child node process, killed by identity in cleanup() if it still runs. */
export function spawnNode(code: string, env: NodeJS.ProcessEnv = {}): ChildProcess & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['-e', code], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  const stat = child.pid === undefined ? undefined : readProcStat(child.pid);
  if (child.pid !== undefined && stat) children.push({ child, pid: child.pid, startTime: stat.startTime });
  return Object.assign(child, { exited });
}

export async function cleanup(): Promise<void> {
  for (const c of children.splice(0)) {
    const stat = readProcStat(c.pid);
    // Signal only the very process we started: same pid AND same start time, and not a zombie.
    if (stat && stat.startTime === c.startTime && stat.state !== 'Z' && c.child.exitCode === null && c.child.signalCode === null) {
      const exited = new Promise((r) => c.child.once('exit', r));
      c.child.kill('SIGKILL');
      await exited;
    }
  }
  await Promise.all(remotes.splice(0).map((r) => r.close()));
}

/** SIGKILL a process only if it is still the one named by (pid, start time) and not a zombie. */
export function killByIdentity(identity: { pid: number; startTime: number }): boolean {
  const stat = readProcStat(identity.pid);
  if (!stat || stat.startTime !== identity.startTime || stat.state === 'Z') return false;
  process.kill(identity.pid, 'SIGKILL');
  return true;
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

export function postJson(url: string, token: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: bearer(token, { 'content-type': 'application/json', ...extra }),
    body: JSON.stringify(body),
  });
}

/** Resolves with the first journal event (already written or future) that satisfies `pred`. */
export function waitForEvent<E extends JournalEvent = JournalEvent>(remote: DrillRemote, pred: (e: JournalEvent) => boolean, timeoutMs = 20_000): Promise<E> {
  const existing = remote.journal().find(pred);
  if (existing) return Promise.resolve(existing as E);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      remote.off('journal', listener);
      reject(new Error(`no matching journal event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (e: JournalEvent): void => {
      if (!pred(e)) return;
      clearTimeout(timer);
      remote.off('journal', listener);
      resolve(e as E);
    };
    remote.on('journal', listener);
  });
}

/** Tracks whether a promise has settled, without awaiting it. */
export function track<T>(p: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise: p };
  p.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}
