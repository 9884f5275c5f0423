/**
 * Stale-run cleanup for containers (the process side is harness/observe/runs.ts): a container
 * labelled by a drill whose run has no live registered harness was left by a harness that died.
 * It is stopped (`stop --time`, then `kill`) and removed. Containers of live runs are never
 * touched, so harnesses sharing one engine leave each other alone. No engine reachable: nothing
 * to do, and said so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isRunLive, runIdOf, type StaleReport } from '../observe/index.js';
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
 * The container sweep for `crash-drill run`, as stale rows of results.json (pid 0: a container,
 * named in cmdline). Only when docker is on PATH; an unreachable engine has nothing to sweep.
 */
export async function sweepStaleContainerRows(runFilter?: (runId: string) => boolean): Promise<StaleReport[]> {
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
