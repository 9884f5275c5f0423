import { eventsOf, firstOf, type DrillEvidence, type SurvivorRow } from '../../evidence/types.js';
import { isNotReached, lossOrUnknown } from '../../evidence/loss.js';
import { survivorCredential } from '../../evidence/queries.js';
import { containerSurvivors, type ContainerSurvivors } from './containers.js';
import { defineCheck, type Judgement } from '../types.js';
import { containerSurvivorsCause } from './container-diagnosis.js';
import { survivorsCause } from './diagnosis.js';
import { practice } from '../../requirements/requirement.js';

type Unattributed = { pid: number; startTime: number; ppid: number; cmdline: string[] };

export type NoSurvivorsData =
  | { afterMs: number; early: boolean }
  /** Nothing of the drill remained that the harness could see, but it could not see everything. */
  | { afterMs: number; unattributed: Unattributed[] }
  | { afterMs: number; survivors: Array<{ pid: number; startTime: number; ppid: number }>; containers?: Array<{ id: string; name: string; image: string }> };

/**
 * no-survivors: after deadline and grace no process of the drill remains (children, re-parented
 * daemons included). Not in `hang` (the client lives); in `stop` and `abandon` the client is left
 * out. Without a cgroup or subreaper, an unattributed new process (harness/observe/unattributed.ts)
 * makes an empty snapshot prove nothing: `unknown`, never `pass`.
 */
export const noSurvivors = defineCheck({
  id: 'no-survivors',
  requirement: practice(
    'no-process-left',
    'A server leaves no process it started running once it has lost its client: no child, grandchild or daemon.',
    'The spec asks a stdio server to exit on EOF and says nothing of the processes it starts; a helper left running keeps the credentials, connections and work of a session nobody owns any more (the cleanup practice this tool comes from: "leaves no helper process it owns").',
  ),
  matcher: { name: 'toLeaveNoSurvivors', expects: 'leave no process behind' },
  applies: (evidence, mode) => evidence.meta.expect.noSurvivors !== null && mode !== 'hang',
  run(evidence: DrillEvidence): Judgement<NoSurvivorsData> {
    const loss = lossOrUnknown(evidence);
    if (isNotReached(loss)) return loss;
    const snapshot = firstOf(evidence, 'snapshot');
    if (!snapshot) return { verdict: 'unknown', summary: 'no process snapshot was taken after the grace period', data: {} };
    const after = Math.round(snapshot.t - loss.t);
    const survivors = snapshot.survivors;
    // Containers of the drill count too (containers.ts).
    const boxes = containerSurvivors(evidence);
    if (boxes && boxes.running.length > 0) return containersFail(after, survivors, boxes);
    if (survivors.length === 0 && boxes?.blind)
      return { verdict: 'unknown', summary: `no process of the drill remained ${after} ms after the client was lost, but ${boxes.blind}`, data: {} };
    const unattributed = unattributedOf(evidence).filter((p) => p.firstSeen <= snapshot.t);
    if (survivors.length === 0 && unattributed.length > 0) {
      const named = unattributed
        .slice(0, 3)
        .map((p) => `pid ${p.pid} (ppid ${p.ppid}) ${p.cmdline.join(' ').slice(0, 80)}`)
        .join('; ');
      return {
        verdict: 'unknown',
        summary: `no process the harness could attribute remained ${after} ms after the client was lost, but ${unattributed.length} process${unattributed.length === 1 ? '' : 'es'} appeared during the drill that no tracking method could tie to it or to anything else (${named}): without a cgroup or a subreaper the harness cannot tell whether ${unattributed.length === 1 ? 'it is' : 'they are'} the drill's`,
        data: { afterMs: after, unattributed: unattributed.map((p) => ({ pid: p.pid, startTime: p.startTime, ppid: p.ppid, cmdline: p.cmdline })) },
      };
    }
    if (survivors.length === 0) {
      return {
        verdict: 'pass',
        summary: `no process of the drill remained ${after} ms after the client was lost`,
        data: { afterMs: after, early: snapshot.early },
      };
    }
    const named = survivors
      .slice(0, 3)
      .map((row) => `pid ${row.pid} (ppid ${row.ppid}) ${row.cmdline.join(' ').slice(0, 80)}`)
      .join('; ');
    const more = survivors.length > 3 ? `; and ${survivors.length - 3} more` : '';
    const noun = survivors.length === 1 ? 'process' : 'processes';
    return {
      verdict: 'fail',
      summary: `${survivors.length} ${noun} survived ${after} ms after the client was lost: ${named}${more}`,
      data: { afterMs: after, survivors: survivors.map((row) => ({ pid: row.pid, startTime: row.startTime, ppid: row.ppid })) },
    };
  },
  followUp: (_outcome, evidence) => [
    // Who started it and what to change is the drill's diagnosis (harness/checks/no-survivors/diagnosis.ts).
    ...survivorsOf(evidence).map((s) => `process ${s.pid} (${s.cmdline.join(' ').slice(0, 60)}) outlived its client: it has been contained`),
    ...containerFollowUps(evidence),
    ...unattributedOf(evidence).map(
      (p) =>
        `process ${p.pid} (${p.cmdline.join(' ').slice(0, 60)}) could not be attributed and was not touched: if the server started it, end it with \`crash-drill contain ${p.pid}\`; run with perl on PATH (a subreaper) or as root (a cgroup) to have the drill find it`,
    ),
  ],
  details(_outcome, evidence) {
    const rows = [];
    const survivors = survivorsOf(evidence);
    if (survivors.length > 0) {
      const items = survivors.map((s) => {
        const held = survivorCredential(evidence, s);
        const credential = held.present ? `; holds a credential in ${held.vars.join(', ')}` : '';
        return `pid ${s.pid} (ppid ${s.ppid}, pgid ${s.pgid}, sid ${s.sid}, state ${s.state}) ${s.cmdline.join(' ')} [found by ${s.foundBy.join(', ')}${credential}]`;
      });
      rows.push({ label: 'survivors', items });
    }
    const unattributed = unattributedOf(evidence);
    if (unattributed.length > 0) {
      rows.push({
        label: 'not attributable',
        items: unattributed.map((p) => `pid ${p.pid} (ppid ${p.ppid}, sid ${p.sid}) ${p.cmdline.join(' ')}: ${p.reason}`),
      });
    }
    return [...rows, ...containerDetails(evidence)];
  },
  diagnose: (_outcome, evidence) => containerSurvivorsCause(evidence) ?? survivorsCause(evidence),
});

function containersFail(after: number, survivors: SurvivorRow[], boxes: ContainerSurvivors): Judgement<NoSurvivorsData> {
  const named = [...boxes.running.map((c) => c.line), ...survivors.map((row) => `pid ${row.pid} (ppid ${row.ppid}) ${row.cmdline.join(' ').slice(0, 80)}`)];
  const shown = named.slice(0, 3).join('; ') + (named.length > 3 ? `; and ${named.length - 3} more` : '');
  const noun = boxes.running.length === 1 ? 'container' : 'containers';
  const processes = survivors.length > 0 ? ` and ${survivors.length} process${survivors.length === 1 ? '' : 'es'}` : '';
  return {
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
  return (containerSurvivors(evidence)?.running ?? []).map(
    (c) => `${c.line} outlived its client: it has been stopped; make the server exit on EOF, run it with --init, and stop the containers it starts`,
  );
}

function containerDetails(evidence: DrillEvidence): Array<{ label: string; items: string[] }> {
  const containers = (containerSurvivors(evidence)?.running ?? []).map((c) => c.line);
  return containers.length > 0 ? [{ label: 'containers', items: containers }] : [];
}

function survivorsOf(evidence: DrillEvidence) {
  return firstOf(evidence, 'snapshot')?.survivors ?? [];
}

function unattributedOf(evidence: DrillEvidence) {
  return eventsOf(evidence, 'process-unattributed');
}
