/**
 * Stale-run cleanup for containers (the process side is harness/observe/runs.ts): a container
 * labelled by a drill whose run has no live registered harness was left by a harness that died.
 * It is stopped (`stop --time`, then `kill`) and removed. Containers of live runs are never
 * touched, so harnesses sharing one engine leave each other alone. No engine reachable: nothing
 * to do, and said so.
 */
import { isRunLive, runIdOf } from '../observe/index.js';
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
