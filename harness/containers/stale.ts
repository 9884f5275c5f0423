/**
 * Stale-run cleanup for containers (the process side is harness/registry/runs.ts): a container
 * labelled by a drill whose run has no live registered harness was left by a harness that died.
 * It is stopped (`stop --time`, then `kill`) and removed. Containers of live runs are never
 * touched, so harnesses sharing one engine leave each other alone. No engine reachable: nothing
 * to do, and said so.
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
 * The mark that a drill of this run used a container engine: <runs>/<runId>.engine, beside the
 * run's registry file. Only a run that used an engine can have left a labelled container, so a
 * run's sweep asks the engine only when a run with a mark has no live harness: `docker version`
 * costs 50 to 150 ms here, and beside a run's first drill it cost that drill about 36 ms (one
 * well-behaved drill: 361 against 325 ms, 12 each, interleaved). A run that ends well takes its
 * mark away; a sweep that reached the engine takes away the marks of the dead runs it swept.
 */
export function engineMarkFile(runId: string): string {
  return runFile(runId, MARK);
}

const MARK = '.engine';

/**
 * Sets the run's mark (drill-containers.ts, at a drill's first sign of an engine); never fails a
 * drill. Made exclusively in the checked registry (own-files.ts): a mark that exists stays.
 */
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
 * The container sweep for `crash-drill run`, as stale rows of results.json (pid 0: a container,
 * named in cmdline). Only when a marked run is dead (engineMarkFile()), or
 * with `always` (a run's sentinel, whose harness has just died: a drill's container can exist a
 * tick before the drill sees its engine CLI), and with docker on PATH; an unreachable engine
 * has nothing to sweep, and the marks stay for the next run.
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
