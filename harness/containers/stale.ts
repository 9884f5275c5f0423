/**
 * Stale-run cleanup for containers (processes: harness/registry/runs.ts): a container labelled by a
 * drill of a run with no live harness is stopped and removed; live runs' are never touched.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runIdOf } from '../observe/index.js';
import { createOwnFile, deadRunsWith, isRunLive, runFile, type StaleReport } from '../registry/index.js';
import { containContainers, type ContainerContainment } from '../containment/containers.js';
import { EngineClient } from './engine.js';
import type { Engine } from './engine-cli.js';
import { RUN_LABEL } from './label.js';

export type StaleContainer = { drillId: string; record: ContainerContainment };

export async function sweepStaleContainers(
  opts: { engine?: Engine; endpoint?: string[]; env?: Record<string, string>; runFilter?: (runId: string) => boolean; termWaitMs?: number } = {},
): Promise<{ reachable: boolean; stale: StaleContainer[] }> {
  const engine = EngineClient.forSubject(opts.engine ?? 'docker', opts.endpoint ?? [], opts.env ?? {});
  const { error } = await engine.version();
  if (error !== null) return { reachable: false, stale: [] };
  const accept = opts.runFilter ?? (() => true);
  const ids = await engine.labelled(RUN_LABEL).catch(() => []);
  const rows = (await engine.inspect(ids)).filter((c) => {
    const runId = runIdOf(c.labels[RUN_LABEL] ?? '');
    return accept(runId) && !isRunLive(runId);
  });
  const records = await containContainers(
    engine,
    rows.map((c) => ({ ...c, attributedBy: 'label' as const, cli: null })),
    { termWaitMs: opts.termWaitMs ?? 1000 },
  );
  return { reachable: true, stale: records.map((record, i) => ({ drillId: rows[i].labels[RUN_LABEL], record })) };
}

/**
 * The mark that a drill of this run used a container engine (<runs>/<runId>.engine): a sweep asks
 * the engine, which is slow to ask, only for a dead run with a mark. A run that ends well, or a
 * sweep that reached the engine, takes it away.
 */
export function engineMarkFile(runId: string): string {
  return runFile(runId, MARK);
}

const MARK = '.engine';

/** Sets the run's mark (exclusively, in the checked registry); never fails a drill. */
export function markEngineUsed(runId: string): void {
  try {
    createOwnFile(engineMarkFile(runId), `${new Date().toISOString()}\n`);
  } catch {
    // No mark: a dead run's containers then wait for its sentinel, or `crash-drill orphans`.
  }
}

/** Takes a run's mark away (the run ended well and contained its own containers, or a sweep did). */
export function clearEngineMark(runId: string): void {
  try {
    rmSync(engineMarkFile(runId), { force: true });
  } catch {
    // a bad id has no mark
  }
}

/**
 * The container sweep for `crash-drill run`, as stale rows (pid 0, named in cmdline): only for a
 * dead marked run, or with `always` (the sentinel: a container may exist a tick before its drill
 * sees the engine CLI). An unreachable engine keeps the marks for the next run.
 */
export async function sweepStaleContainerRows(runFilter?: (runId: string) => boolean, opts: { always?: boolean } = {}): Promise<StaleReport[]> {
  const accept = runFilter ?? (() => true);
  const dead = deadRunsWith(MARK, accept);
  if (!opts.always && dead.length === 0) return [];
  if (!(process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'docker')))) return [];
  const { reachable, stale } = await sweepStaleContainers({ env: process.env as Record<string, string>, runFilter }).catch(() => ({
    reachable: false,
    stale: [] as StaleContainer[],
  }));
  if (reachable) {
    for (const runId of dead) clearEngineMark(runId);
  }
  return stale.map(({ drillId, record }) => ({
    drillId,
    pid: 0,
    startTime: 0,
    cmdline: ['container', record.id.slice(0, 12), record.name, record.image],
    endedBy:
      record.endedBy === 'survived'
        ? 'survived'
        : record.endedBy === 'already-gone' || record.endedBy === 'mismatch'
          ? 'already-gone'
          : record.forced
            ? 'SIGKILL'
            : 'SIGTERM',
  }));
}
