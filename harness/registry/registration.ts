/**
 * A run's registration, <registry>/runs/<runId>.json, locked while its harness runs (run-lock.ts):
 * `live` while the lock is held, `dead` once registered with the lock free (the kernel frees it
 * when the harness dies, in any PID namespace), `unregistered` when none can be read here.
 */
import { closeSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ObserveError } from '../observe/index.js';
import { pollExit } from '../observe/index.js';
import { identify, isAlive, type ProcIdentity } from '../observe/index.js';
import { SUITE_ENV } from '../observe/index.js';
import { openOwnFile, replaceOwnFileKeepOpen } from './own-files.js';
import { runsDir, siblingRunsDirs } from './registry.js';
import { probeLocks, takeLock, whenLockFree } from './run-lock.js';

export type RunRegistration = { unregister(): void };

export const SAFE_ID = /^[A-Za-z0-9._-]+$/;

/** A file of one run in the registry, <runs>/<runId><suffix>: its registration, its watchdog records, its engine mark. */
export function runFile(runId: string, suffix: string): string {
  if (!SAFE_ID.test(runId)) throw new ObserveError('OBSERVE_BAD_RUN_ID', `run id ${JSON.stringify(runId)} has characters outside [A-Za-z0-9._-]`);
  return join(runsDir(), `${runId}${suffix}`);
}

export function registryFile(runId: string): string {
  return runFile(runId, '.json');
}

/** A run's state: its harness runs (`live`), is proven gone (`dead`), or no registration of it can be read here. */
export type RunState = 'live' | 'dead' | 'unregistered';

export function registerRun(runId: string): RunRegistration {
  const file = registryFile(runId);
  const self = identify(process.pid);
  if (self === null) throw new ObserveError('OBSERVE_REGISTRY_WRITE', "cannot read the harness's own /proc/self/stat");
  let fd: number;
  try {
    // Locked before it is renamed into place: no sweep ever finds a live run's file unlocked.
    fd = replaceOwnFileKeepOpen(file, (tmp) => {
      const lock = takeLock(tmp);
      const suite = process.env[SUITE_ENV];
      return JSON.stringify({
        runId,
        pid: self.pid,
        startTime: self.startTime,
        registeredAt: new Date().toISOString(),
        ...(lock ? { lock: 'flock' } : {}),
        // Whose run it is, for whoever started it (run-ids.ts SUITE_ENV); never read by a sweep.
        ...(suite ? { suite } : {}),
      });
    });
  } catch (err) {
    throw new ObserveError('OBSERVE_REGISTRY_WRITE', `cannot write the run registry file ${file}`, { cause: err });
  }
  let held = true;
  return {
    unregister() {
      if (!held) return;
      held = false;
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
      // The name first, then the lock: a sweep never finds this run's file with its lock free.
      closeSync(fd);
    },
  };
}

type Registration = { harness: ProcIdentity | null; lock: boolean };

function parseRegistration(text: string): Registration | null {
  try {
    const data = JSON.parse(text) as { pid?: unknown; startTime?: unknown; lock?: unknown };
    const harness = typeof data.pid === 'number' && typeof data.startTime === 'number' ? { pid: data.pid, startTime: data.startTime } : null;
    return { harness, lock: data.lock === 'flock' };
  } catch {
    return null; // garbled: not a registration we wrote
  }
}

/**
 * The folders a registration may be in: this registry's runs/ (checked, RegistryError when it is
 * not private) and the user's other registries' (registry.ts siblingRunsDirs). Read once per
 * question, not once per run: each check resolves and lstats every folder above.
 */
function registrationDirs(): string[] {
  return [runsDir(), ...siblingRunsDirs()];
}

/**
 * Each run's state from this user's registrations. An unprobeable lock counts as live; without a
 * lock, the harness's pid and start time decide. RegistryError when the registry is not private,
 * so a failed read never makes every run dead.
 */
export function runStates(runIds: Iterable<string>): Map<string, RunState> {
  const states = new Map<string, RunState>();
  const note = (runId: string, state: RunState): void => {
    const was = states.get(runId);
    if (was === 'live' || (was === 'dead' && state === 'unregistered')) return;
    states.set(runId, state);
  };
  const opened: number[] = [];
  const locked: Array<{ runId: string; fd: number }> = [];
  // A bad id was never registered; with none but bad ids, no folder is read (nor refused).
  const ids = [...new Set(runIds)];
  const dirs = ids.some((id) => SAFE_ID.test(id)) ? registrationDirs() : [];
  try {
    for (const runId of ids) {
      note(runId, 'unregistered');
      if (!SAFE_ID.test(runId)) continue;
      for (const candidate of dirs.map((dir) => join(dir, `${runId}.json`))) {
        const file = openOwnFile(candidate);
        if (file === null) continue;
        opened.push(file.fd);
        const reg = parseRegistration(file.text);
        if (reg === null) continue;
        if (reg.lock) locked.push({ runId, fd: file.fd });
        else note(runId, reg.harness !== null && isAlive(reg.harness) ? 'live' : 'dead');
      }
    }
    const probed = locked.length > 0 ? probeLocks(locked.map((l) => l.fd)) : [];
    for (const [i, { runId }] of locked.entries()) note(runId, probed?.[i] === 'free' ? 'dead' : 'live');
  } finally {
    for (const fd of opened) closeSync(fd);
  }
  return states;
}

export function isRunLive(runId: string): boolean {
  return runStates([runId]).get(runId) === 'live';
}

/** Resolves once the run's harness is proven gone, or after `timeoutMs`; at once when it is not registered here. */
export async function whenRunEnds(runId: string, timeoutMs: number): Promise<void> {
  const file = openOwnFile(registryFile(runId));
  if (file === null) return;
  try {
    const reg = parseRegistration(file.text);
    if (reg?.lock) await whenLockFree(file.fd, timeoutMs);
    else if (reg?.harness) await pollExit(reg.harness, { intervalMs: 5, timeoutMs });
  } finally {
    closeSync(file.fd);
  }
}
