/**
 * Containment of one drill: end every live member by identity, gently first, re-sampling and
 * repeating (a dying handler may fork) up to a bound; cgroup.kill last, only with no excluded process inside.
 */
import { identityKey, type ProcIdentity } from '../observe/index.js';
import type { DrillTracker } from '../observe/index.js';
import { newRecord, step, type ContainmentRecord } from './record.js';
import { terminate, waitAll } from './terminate.js';

/** How a drill is contained (the drill's caller: harness/drill/executor/clean-up.ts). */
export type DrillContainOptions = {
  exclude?: ProcIdentity[];
  /** How long to wait for SIGTERM to work. Default 1000 ms. */
  termWaitMs?: number;
  /** How long to wait for SIGKILL to work. Default 1000 ms. */
  killWaitMs?: number;
};

const MAX_ROUNDS = 5;

export async function containDrill(tracker: DrillTracker, opts: DrillContainOptions = {}): Promise<ContainmentRecord[]> {
  const termWaitMs = opts.termWaitMs ?? 1000;
  const killWaitMs = opts.killWaitMs ?? 1000;
  const excluded = new Set((opts.exclude ?? []).map(identityKey));
  const records = new Map<string, ContainmentRecord>();

  const targets = (): ContainmentRecord[] =>
    tracker
      .sampleNow()
      .filter((p) => !excluded.has(identityKey(p)) && !records.has(identityKey(p)))
      .map((p) => {
        const r = newRecord(p, p.cmdline);
        records.set(identityKey(p), r);
        return r;
      });

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const batch = targets();
    if (batch.length === 0) break;
    await terminate(batch, { termWaitMs, killWaitMs });
  }

  const stillLive = tracker.sampleNow().filter((p) => !excluded.has(identityKey(p)));
  const cgroup = tracker.cgroup;
  if (stillLive.length > 0 && cgroup) {
    const inside = new Set(cgroup.pids());
    const spareExcluded = tracker.live().some((p) => excluded.has(identityKey(p)) && inside.has(p.pid));
    if (!spareExcluded) {
      const pending = stillLive.map((p) => records.get(identityKey(p)) ?? addRecord(records, p));
      const killed = cgroup.kill();
      for (const r of pending) {
        step(r, { kind: 'cgroup.kill', result: killed ? 'sent' : 'unavailable' });
        if (killed) r.forced = true;
      }
      for (const [r, obs] of await waitAll(pending, killWaitMs)) r.endedBy = obs ? 'SIGKILL' : 'survived';
      tracker.sampleNow();
    }
  }
  return [...records.values()];
}

function addRecord(records: Map<string, ContainmentRecord>, p: ProcIdentity & { cmdline: string[] }): ContainmentRecord {
  const r = newRecord(p, p.cmdline);
  records.set(identityKey(p), r);
  return r;
}
