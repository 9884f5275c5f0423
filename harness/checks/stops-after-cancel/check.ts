import { argvOf, describeRequest, serverOf, sessionOf, firstGenerationRequests } from '../../evidence/queries.js';
import { eventsOf, firstOf, type DrillEvidence } from '../../evidence/types.js';
import { cancelOrUnknown, isCancelDrill, isCancelWindow } from '../../evidence/cancel.js';
import { dataOf, defineCheck, type Judgement } from '../types.js';
import { STOPS_ON_CANCEL } from '../../requirements/catalog.js';

export interface StopsAfterCancelData {
  deadlineMs: number;
  /** Children that appeared after the target call was written, and when (ms after the cancel) they ended; null: not within the window. */
  children: Array<{ pid: number; startTime: number; cmdline: string; endedAfterMs: number | null }>;
  writesAfterCancel: Array<{ seq: number; afterMs: number; route: string; outcome: string; pid: number | null }>;
  runningJobs: string[];
}

/**
 * stops-after-cancel: no new remote write from the drill, every child that appeared after the call
 * ended within the deadline, and every session job is cancelled or completed. A child still
 * running when a later kill cut the window short: unknown.
 */
export const stopsAfterCancel = defineCheck({
  id: 'stops-after-cancel',
  requirement: STOPS_ON_CANCEL,
  matcher: { name: 'toStopAfterCancel', expects: "stop a cancelled call's work" },
  applies: (evidence) => isCancelDrill(evidence) && evidence.meta.expect.stopsAfterCancel != null,
  withoutLoss: true,
  run(evidence: DrillEvidence): Judgement<StopsAfterCancelData> {
    const window = cancelOrUnknown(evidence);
    if (!isCancelWindow(window)) return window;
    const { cancel, end, cutByLoss } = window;
    const deadlineMs = evidence.meta.expect.stopsAfterCancel?.deadline ?? 0;
    const judgedUntil = Math.min(end, cancel.t + deadlineMs);
    const children = callChildren(evidence).map((c) => {
      const exit = eventsOf(evidence, 'process-exit').find((e) => e.pid === c.pid && e.startTime === c.startTime);
      return {
        pid: c.pid,
        startTime: c.startTime,
        cmdline: argvOf(evidence, c).join(' ').slice(0, 120),
        endedAfterMs: exit && exit.t <= judgedUntil ? Math.round(exit.t - cancel.t) : null,
      };
    });
    const writes = firstGenerationRequests(evidence).filter((r) => r.write && r.t > cancel.t && r.t <= end);
    const writesAfterCancel = writes.map((r) => ({
      seq: r.seq,
      afterMs: Math.round(r.t - cancel.t),
      route: r.route,
      outcome: r.outcome,
      pid: r.process?.pid ?? null,
    }));
    const session = sessionOf(evidence, 'drill');
    const state = eventsOf(evidence, 'remote-state').find((s) => s.label === 'cancel-window') ?? eventsOf(evidence, 'remote-state')[0];
    const runningJobs = (state?.jobs ?? []).filter((j) => j.status === 'running' && (session === null || j.sessionId === session)).map((j) => j.id);
    const data = { deadlineMs, children, writesAfterCancel, runningJobs };
    const alive = children.filter((c) => c.endedAfterMs === null);
    const problems: string[] = [];
    if (writes.length > 0)
      problems.push(
        `${writes.length} new write${writes.length === 1 ? '' : 's'} after the cancel, the first ${writesAfterCancel[0].afterMs} ms after: ${describeRequest(writes[0])}`,
      );
    if (runningJobs.length > 0) problems.push(`remote job${runningJobs.length === 1 ? '' : 's'} ${runningJobs.join(', ')} still running after the cancel`);
    if (alive.length > 0 && (!cutByLoss || end >= cancel.t + deadlineMs)) {
      problems.push(
        `${alive.length === 1 ? 'a child' : `${alive.length} children`} the call started still running ${deadlineMs} ms after the cancel: ${alive.map((c) => `pid ${c.pid} (${c.cmdline.slice(0, 60)})`).join('; ')}`,
      );
    }
    if (problems.length > 0) return { verdict: 'fail', summary: problems.join('; '), data };
    if (alive.length > 0) {
      return {
        verdict: 'unknown',
        summary: `the client was killed ${Math.round(end - cancel.t)} ms after the cancel, before the ${deadlineMs} ms deadline, with the call's child still running`,
        data,
      };
    }
    const ended =
      children.length > 0
        ? `its ${children.length === 1 ? 'child' : `${children.length} children`} ended within ${Math.max(...children.map((c) => c.endedAfterMs ?? 0))} ms, `
        : '';
    return { verdict: 'pass', summary: `the call stopped after the cancel: ${ended}no new write, no job left running`, data };
  },
  followUp: () => ['the server went on with a cancelled call: stop its children, writes and jobs when notifications/cancelled arrives'],
  details(outcome) {
    const d = dataOf(outcome);
    const out = [];
    const alive = (d.children ?? []).filter((c) => c.endedAfterMs === null);
    if (alive.length > 0) out.push({ label: 'children still running after the cancel', items: alive.map((c) => `pid ${c.pid} ${c.cmdline}`) });
    if ((d.writesAfterCancel ?? []).length > 0)
      out.push({
        label: 'writes after the cancel',
        items: d.writesAfterCancel!.map((w) => `#${w.seq} +${w.afterMs} ms ${w.route} -> ${w.outcome} (pid ${w.pid ?? 'unknown'})`),
      });
    if ((d.runningJobs ?? []).length > 0) out.push({ label: 'jobs still running', items: d.runningJobs! });
    return out;
  },
});

/** The processes that appeared after the target call was written: what the call started. Not the server itself. */
function callChildren(evidence: DrillEvidence) {
  const dispatched = firstOf(evidence, 'dispatched');
  if (!dispatched) return [];
  const server = serverOf(evidence);
  const client = firstOf(evidence, 'client-spawned');
  return eventsOf(evidence, 'process-new').filter((p) => p.t >= dispatched.t && p.pid !== server?.pid && p.pid !== client?.pid);
}
