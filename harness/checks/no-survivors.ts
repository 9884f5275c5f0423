import { firstOf, type DrillEvidence, type SurvivorRow } from '../evidence/types.js';
import { isCheckResult, lossOrUnknown } from './loss.js';
import { containerSurvivors, type ContainerSurvivors } from './no-survivors-containers.js';
import { defineCheck, type CheckOutcome } from './types.js';

export type NoSurvivorsData =
  | { afterMs: number; early: boolean }
  | { afterMs: number; survivors: Array<{ pid: number; startTime: number; ppid: number }>; containers?: Array<{ id: string; name: string; image: string }> };

/**
 * no-survivors: after the deadline and the grace period no process of the drill remains: the
 * server, its children, grandchildren, daemons that re-parented or changed session. In `hang`
 * mode the client is alive (stopped), so its server may rightly live on: not applicable.
 */
export const noSurvivors = defineCheck({
  id: 'no-survivors',
  applies: (evidence, mode) => evidence.meta.expect.noSurvivors !== null && mode !== 'hang',
  run(evidence: DrillEvidence): CheckOutcome<'no-survivors', NoSurvivorsData> {
    const id = 'no-survivors' as const;
    const loss = lossOrUnknown(evidence, id);
    if (isCheckResult(loss)) return loss;
    const snapshot = firstOf(evidence, 'snapshot');
    if (!snapshot) return { id, verdict: 'unknown', summary: 'no process snapshot was taken after the grace period', data: {} };
    const after = Math.round(snapshot.t - loss.t);
    const survivors = snapshot.survivors;
    // Containers of the drill count too (no-survivors-containers.ts).
    const boxes = containerSurvivors(evidence);
    if (boxes && boxes.running.length > 0) return containersFail(after, survivors, boxes);
    if (survivors.length === 0 && boxes?.blind) return { id, verdict: 'unknown', summary: `no process of the drill remained ${after} ms after the client was lost, but ${boxes.blind}`, data: {} };
    if (survivors.length === 0) {
      return { id, verdict: 'pass', summary: `no process of the drill remained ${after} ms after the client was lost`, data: { afterMs: after, early: snapshot.early } };
    }
    const named = survivors
      .slice(0, 3)
      .map((row) => `pid ${row.pid} (ppid ${row.ppid}) ${row.cmdline.join(' ').slice(0, 80)}`)
      .join('; ');
    const more = survivors.length > 3 ? `; and ${survivors.length - 3} more` : '';
    const noun = survivors.length === 1 ? 'process' : 'processes';
    return {
      id,
      verdict: 'fail',
      summary: `${survivors.length} ${noun} survived ${after} ms after the client was lost: ${named}${more}`,
      data: { afterMs: after, survivors: survivors.map((row) => ({ pid: row.pid, startTime: row.startTime, ppid: row.ppid })) },
    };
  },
  followUp: (_outcome, evidence) => [
    ...survivorsOf(evidence).map((s) => `process ${s.pid} outlived its client: it has been contained; make the server end its children`),
    ...containerFollowUps(evidence),
  ],
  details(_outcome, evidence) {
    const survivors = survivorsOf(evidence);
    if (survivors.length === 0) return containerDetails(evidence);
    const items = survivors.map((s) => {
      const credential = s.credential.present ? `; holds a credential in ${s.credential.vars.join(', ')}` : '';
      return `pid ${s.pid} (ppid ${s.ppid}, pgid ${s.pgid}, sid ${s.sid}, state ${s.state}) ${s.cmdline.join(' ')} [found by ${s.foundBy.join(', ')}${credential}]`;
    });
    return [{ label: 'survivors', items }, ...containerDetails(evidence)];
  },
});

function containersFail(after: number, survivors: SurvivorRow[], boxes: ContainerSurvivors): CheckOutcome<'no-survivors', NoSurvivorsData> {
  const named = [...boxes.running.map((c) => c.line), ...survivors.map((row) => `pid ${row.pid} (ppid ${row.ppid}) ${row.cmdline.join(' ').slice(0, 80)}`)];
  const shown = named.slice(0, 3).join('; ') + (named.length > 3 ? `; and ${named.length - 3} more` : '');
  const noun = boxes.running.length === 1 ? 'container' : 'containers';
  const processes = survivors.length > 0 ? ` and ${survivors.length} process${survivors.length === 1 ? '' : 'es'}` : '';
  return {
    id: 'no-survivors',
    verdict: 'fail',
    summary: `${boxes.running.length} ${noun}${processes} survived ${after} ms after the client was lost: ${shown}`,
    data: {
      afterMs: after,
      survivors: survivors.map((row) => ({ pid: row.pid, startTime: row.startTime, ppid: row.ppid })),
      containers: boxes.running.map((c) => ({ id: c.id, name: c.name, image: c.image })),
    },
  };
}

function containerFollowUps(evidence: DrillEvidence): string[] {
  return (containerSurvivors(evidence)?.running ?? []).map((c) => `${c.line} outlived its client: it has been stopped; make the server exit on EOF, run it with --init, and stop the containers it starts`);
}

function containerDetails(evidence: DrillEvidence): Array<{ label: string; items: string[] }> {
  const containers = (containerSurvivors(evidence)?.running ?? []).map((c) => c.line);
  return containers.length > 0 ? [{ label: 'containers', items: containers }] : [];
}

function survivorsOf(evidence: DrillEvidence) {
  return firstOf(evidence, 'snapshot')?.survivors ?? [];
}
