/**
 * Stale-run cleanup for containers (the process side is harness/observe/runs.ts): a container
 * labelled by a drill whose run has no live registered harness was left by a harness that died.
 * It is stopped (`stop --time`, then `kill`) and removed. Containers of live runs are never
 * touched, so harnesses sharing one engine leave each other alone. No engine reachable: nothing
 * to do, and said so.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRunLive, runIdOf, runsDir, type StaleReport } from '../observe/index.js';
import { containContainers } from './contain.js';
import { EngineClient } from './engine.js';
import type { Engine } from './engine-cli.js';
import { RUN_LABEL } from './label.js';
import type { ContainerContainment } from './types.js';

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
    opts.termWaitMs ?? 1000,
  );
  return { reachable: true, stale: records.map((record, i) => ({ drillId: rows[i].labels[RUN_LABEL], record })) };
}

/**
 * The mark that a drill of this user used a container engine on this machine, beside the run
 * registry (<tmpdir>/crash-drill-<uid>/engine-used). Only then can a dead run have left a
 * labelled container, so only then does a run's sweep ask the engine: `docker version` costs
 * 50 to 150 ms of every run on a machine with docker installed, and the drills of most runs
 * never touch it.
 */
export function engineMarkFile(): string {
  return join(dirname(runsDir()), 'engine-used');
}

/** Sets the mark (drill-containers.ts, at a drill's first sign of an engine); never fails a drill. */
export function markEngineUsed(): void {
  const file = engineMarkFile();
  if (existsSync(file)) return;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, `${new Date().toISOString()}\n`);
  } catch {
    // No mark: the next runs skip the container sweep; `crash-drill orphans` still finds the containers.
  }
}

/**
 * The container sweep for `crash-drill run`, as stale rows of results.json (pid 0: a container,
 * named in cmdline). Only when a drill of this user has used an engine here (engineMarkFile())
 * and docker is on PATH; an unreachable engine has nothing to sweep.
 */
export async function sweepStaleContainerRows(runFilter?: (runId: string) => boolean): Promise<StaleReport[]> {
  if (!existsSync(engineMarkFile())) return [];
  if (!(process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, 'docker')))) return [];
  const { stale } = await sweepStaleContainers({ env: process.env as Record<string, string>, runFilter }).catch(() => ({ stale: [] as StaleContainer[] }));
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
