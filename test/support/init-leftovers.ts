/**
 * Processes that `crash-drill init` started, of one test file only: the file runs init with
 * CRASH_DRILL_INIT set to a marker of its own, which init's marker extends
 * (harness/init/list-tools.ts), so init test files running side by side never see, nor kill,
 * each other's servers.
 */
import { randomUUID } from 'node:crypto';
import { INIT_MARKER_ENV } from '../../harness/init/list-tools.js';
import { identify, type ProcIdentity, procState } from '../../harness/observe/identity.js';
import { listPids, readEnviron } from '../../harness/observe/proc.js';

/** A marker for one test file, and the environment that hands it to init. */
export function initMarker(): { marker: string; env: Record<string, string> } {
  const marker = `test-${randomUUID()}`;
  return { marker, env: { [INIT_MARKER_ENV]: marker } };
}

/** Live (not zombie) processes that an init under this marker started. */
export function initLeftovers(marker: string): ProcIdentity[] {
  const out: ProcIdentity[] = [];
  for (const pid of listPids()) {
    if (!readEnviron(pid)?.get(INIT_MARKER_ENV)?.startsWith(`${marker}.`)) continue;
    const id = identify(pid);
    if (id && procState(id) === 'alive') out.push(id);
  }
  return out;
}
