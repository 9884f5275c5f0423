/** The incident record of a drill, from the evidence alone: when the client became unavailable, the server's last action started, authority was revoked. */
import { hadRemote, serverRequests, sessionOf, firstGenerationRequests, SUCCEEDED, survivorCredential } from '../evidence/queries.js';
import { eventsOf, firstOf, type DrillEvidence } from '../evidence/types.js';
import { failedCheckContributions, type CheckId, type CheckResult } from '../checks/all-checks.js';
import type { CheckFinding } from '../checks/types.js';
import { describeEra, eraOf } from './era-info.js';
import type { ExitInfo } from './exit-info-types.js';
import { describeRecordCuts } from './record-cut.js';
import { activityInfo, type ActivityInfo } from './activity-info.js';
import type { Diagnosis } from './diagnosis.js';

/** A moment of the drill: ms since the drill started, and the wall-clock time when known. */
export interface Moment {
  ms: number;
  at: string | null;
}

export interface IncidentRecord {
  observedAt: Moment | null;
  client: { pid: number; command: string } | null;
  server: { pid: number; command: string; ppid: number | null; pgid: number | null } | null;
  /** The drill remote's side, only where the drill had a remote (hadRemote): elsewhere the harness's bookkeeping would read as an incident. */
  sessionId?: string | null;
  authorization?: string;
  clientUnavailableAt: Moment | null;
  lastActionStartedAt?: Moment | null;
  lastSuccessfulActionAt?: Moment | null;
  lastAttemptedActionAt?: Moment | null;
  action: { tool: string; operation: string | null; target: string | null } | null;
  result?: { effects: string[]; jobs: string[] };
  revocation?: { at: Moment; operator: string } | null;
  termination: string;
  protocol: string;
  cancelledAt: Moment | null;
  /** Where the record was cut (what the server wrote outside the protocol is bounded): one line a stream, empty when whole. */
  recordCut?: string[];
  /** The server's own activity record beside what the remote saw, when the drill read it (harness/results/activity-info.ts). */
  activity?: ActivityInfo;
  followUp: string[];
  /** Per failed check: the cause as observed, the facts, the SDK's known behaviour, the fix (harness/results/diagnosis.ts). */
  diagnosis?: Diagnosis[];
  /** What each failed check found, labelled by the check itself (harness/checks/types.ts). */
  findings: CheckFinding<CheckId>[];
}

export function incidentRecord(evidence: DrillEvidence, checks: CheckResult[], exit: ExitInfo | null, diagnosis: Diagnosis[] = []): IncidentRecord {
  const start = firstOf(evidence, 'drill-start');
  const t0 = evidence.events[0]?.t ?? 0;
  const wall0 = start?.wall ? Date.parse(start.wall) : null;
  const moment = (t: number | undefined | null): Moment | null =>
    t === undefined || t === null ? null : { ms: Math.round(t - t0), at: wall0 === null ? null : new Date(wall0 + (t - t0)).toISOString() };

  const lost = firstOf(evidence, 'client-lost');
  const clientEvent = firstOf(evidence, 'client-spawned');
  const spawned = firstOf(evidence, 'subject-spawned');
  const seen = spawned ? eventsOf(evidence, 'process-new').find((p) => p.pid === spawned.pid) : undefined;
  const revoked = firstOf(evidence, 'revoked');
  const requests = firstGenerationRequests(evidence);
  const succeeded = requests.filter((r) => SUCCEEDED.has(r.outcome));
  const writes = serverRequests(evidence).filter((r) => r.write);
  const lastWrite = writes[writes.length - 1];
  const state = eventsOf(evidence, 'remote-state').pop();
  const { meta } = evidence;
  const keyRotated = firstOf(evidence, 'api-key-rotated') !== undefined;
  const keyUsed = requests.some((r) => r.credential === 'api-key');
  const fromChecks = failedCheckContributions(evidence, checks);
  const remote = hadRemote(evidence)
    ? {
        sessionId: sessionOf(evidence, 'drill'),
        authorization: !revoked
          ? 'the session was never revoked'
          : `session revoked by ${revoked.operator}${keyUsed ? (keyRotated ? '; the long-lived API key was used and has been rotated' : '; the long-lived API key was used and is still valid') : ''}`,
        lastActionStartedAt: moment(requests[requests.length - 1]?.t),
        lastSuccessfulActionAt: moment(succeeded[succeeded.length - 1]?.t),
        lastAttemptedActionAt: moment(requests[requests.length - 1]?.t),
        result: { effects: state?.effects.map((e) => e.id) ?? [], jobs: state?.jobs.map((j) => `${j.id} (${j.status})`) ?? [] },
        revocation: revoked ? { at: moment(revoked.t)!, operator: revoked.operator } : null,
      }
    : {};

  return {
    observedAt: moment(lost?.t),
    client: clientEvent ? { pid: clientEvent.pid, command: (clientEvent.cmdline ?? []).join(' ') } : null,
    server: spawned
      ? { pid: spawned.pid, command: [meta.subject.command, ...meta.subject.args].join(' '), ppid: seen?.ppid ?? null, pgid: seen?.pgid ?? null }
      : null,
    clientUnavailableAt: moment(lost?.t),
    action: { tool: targetTool(evidence), operation: lastWrite ? lastWrite.route : null, target: lastWrite ? lastWrite.path : null },
    ...remote,
    termination: termination(exit),
    protocol: describeEra(eraOf(evidence), evidence),
    cancelledAt: moment(firstOf(evidence, 'cancel-sent')?.t),
    recordCut: describeRecordCuts(evidence),
    ...activityField(evidence),
    // The diagnosis says what to change, each failed check what to do now.
    followUp: [...new Set([...diagnosis.map((d) => d.fix), ...fromChecks.followUp, ...credentialFollowUps(evidence)])],
    diagnosis,
    findings: fromChecks.findings,
  };
}

function activityField(evidence: DrillEvidence): { activity?: ActivityInfo } {
  const info = activityInfo(evidence);
  return info ? { activity: info } : {};
}

function targetTool(evidence: DrillEvidence): string {
  const call = firstOf(evidence, 'before-dispatch');
  const request = eventsOf(evidence, 'rpc-out').find((e) => {
    const m = e.message as { id?: unknown; method?: string };
    return call && m.id === call.requestId && m.method === 'tools/call';
  });
  return (request?.message as { params?: { name?: string } } | undefined)?.params?.name ?? evidence.meta.target ?? '';
}

function termination(exit: ExitInfo | null): string {
  if (!exit) return 'the server never started';
  switch (exit.class) {
    case 'did-not-exit':
      return 'the server did not exit';
    case 'signal':
      return `killed by ${exit.signal} (${exit.signalFrom ?? 'sender unknown'})`;
    case 'broken-pipe':
      return `ended on its own: ${exit.signal} on ${exit.signalFrom} (nobody sent it a signal)`;
    case 'crash':
      return `crashed with code ${exit.code}: ${exit.crash}`;
    case 'unknown':
      return 'exited; its status was reaped before it could be read';
    default:
      return `exited with code ${exit.code}${exit.endedAfter ? ` after ${exit.endedAfter}` : ''}`;
  }
}

/** A survivor that still holds a credential the drill knows; the drill token counts only where the drill had a remote. */
function credentialFollowUps(evidence: DrillEvidence): string[] {
  const survivors = firstOf(evidence, 'snapshot')?.survivors ?? [];
  return survivors.flatMap((s) => {
    const { present, vars } = survivorCredential(evidence, s);
    return present ? [`process ${s.pid} held a credential in its environment (${vars.join(', ')}): rotate it`] : [];
  });
}
