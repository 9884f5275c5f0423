import { foldRequests } from '../remote/journal-fold.js';
import type { RequestRecord } from '../remote/types.js';
import { clientSignalsTo } from './client-signals.js';
import { eventsOf, firstOf, type DrillEvidence, type SurvivorRow } from './types.js';

/** Who signalled the server before it exited: the client's stop steps or the harness; null when nobody did. */
export function signalBeforeExit(
  evidence: DrillEvidence,
  exitAt: number,
  server: { pid: number; startTime: number },
): { signal: string; by: 'client' | 'harness' } | null {
  // Both sides stamp CLOCK_MONOTONIC; 1 ms absorbs rounding between the signal's and the exit's stamps.
  const until = exitAt + 1;
  // Behind a launcher, a signal to the direct child does not reach the server; one to the group or tree may.
  const step = clientSignalsTo(evidence, server, until).pop();
  const harness = harnessSignalsTo(evidence, server, until).pop();
  if (harness && (!step || harness.t > step.t)) return { signal: harness.signal, by: 'harness' };
  if (step) return { signal: step.signal, by: 'client' };
  return null;
}

/** The signals the harness's containment sent the server by identity up to `until`, in order. */
function harnessSignalsTo(evidence: DrillEvidence, server: { pid: number; startTime: number | null }, until: number) {
  return eventsOf(evidence, 'signal').filter((e) => e.pid === server.pid && e.startTime === server.startTime && e.result === 'sent' && e.t <= until);
}

/** When the first signal reached the server (client's stop sequence, parent-death signal or containment); null when none did. */
export function firstSignalAt(evidence: DrillEvidence, server: { pid: number; startTime: number | null }): number | null {
  const times = [clientSignalsTo(evidence, server, Number.POSITIVE_INFINITY)[0]?.t, harnessSignalsTo(evidence, server, Number.POSITIVE_INFINITY)[0]?.t];
  const sent = times.filter((t): t is number => t !== undefined);
  return sent.length > 0 ? Math.min(...sent) : null;
}

export function describeSignal(sent: { signal: string; by: 'client' | 'harness' }): string {
  return sent.by === 'client' ? `${sent.signal} from the client's shutdown` : `${sent.signal} from the harness`;
}

/** The server under test: the real server below a launcher when there is one, else the direct child. */
/** What a drill's process runs: its process-new argv, or that of its last process-exec. */
export function argvOf(evidence: DrillEvidence, p: { pid: number; startTime: number; cmdline: string[] }): string[] {
  const execs = eventsOf(evidence, 'process-exec').filter((e) => e.pid === p.pid && e.startTime === p.startTime);
  return execs.length > 0 ? execs[execs.length - 1].cmdline : p.cmdline;
}

export function serverOf(evidence: DrillEvidence): { pid: number; startTime: number | null } | null {
  const real = firstOf(evidence, 'real-server');
  if (real) return { pid: real.pid, startTime: real.startTime };
  const direct = firstOf(evidence, 'subject-spawned');
  return direct ? { pid: direct.pid, startTime: direct.startTime } : null;
}

export interface ServerExit {
  pid: number;
  startTime: number;
  /** The earliest moment anyone saw it gone: the client reaping it, or the observer's watch. */
  t: number;
  code: number | null;
  signal: string | null;
}

/** The server's exit as both witnesses saw it: the observer may notice first, the client knows the status. */
export function serverExitOf(evidence: DrillEvidence): ServerExit | null {
  const seen = firstOf(evidence, 'server-exit');
  if (!seen) return null;
  const direct = firstOf(evidence, 'subject-spawned');
  const reaped = direct?.pid === seen.pid ? firstOf(evidence, 'subject-exit') : undefined;
  return {
    pid: seen.pid,
    startTime: seen.startTime,
    t: reaped ? Math.min(seen.t, reaped.t) : seen.t,
    code: seen.code ?? reaped?.code ?? null,
    signal: seen.signal ?? reaped?.signal ?? null,
  };
}

/** Remote outcomes where a request got what it asked for. */
export const SUCCEEDED: ReadonlySet<string> = new Set(['committed', 'replayed', 'ok']);

/** The drill remote's requests of this drill, folded from the journal events in the evidence. */
export function remoteRequests(evidence: DrillEvidence): RequestRecord[] {
  return foldRequests(eventsOf(evidence, 'remote').map((e) => e.entry));
}

/** API-key requests during the drill that no drill could claim (they may be this drill's). */
export function unclaimedRequests(evidence: DrillEvidence): RequestRecord[] {
  const until = firstOf(evidence, 'containment-start')?.t ?? Infinity;
  return foldRequests(eventsOf(evidence, 'remote-unattributed').map((e) => e.entry)).filter((r) => r.t < until);
}

export function sessionOf(evidence: DrillEvidence, role: 'drill' | 'retry'): string | null {
  return eventsOf(evidence, 'session').find((e) => e.role === role)?.sessionId ?? null;
}

/** Requests made by the servers of the drill (both generations): everything but the harness's probe. */
export function serverRequests(evidence: DrillEvidence): RequestRecord[] {
  const harnessPids = new Set(eventsOf(evidence, 'probe').map((e) => e.pid));
  return remoteRequests(evidence).filter((r) => !(r.process && harnessPids.has(r.process.pid)));
}

/** Whether the drill had a remote worth reporting (a remote check on, or a request sent); else its session is bookkeeping. */
export function hadRemote(evidence: DrillEvidence): boolean {
  const e = evidence.meta.expect;
  if (e.idempotentEffects || e.deniedAfterRevocation || e.quietAfterLoss || e.jobsSettled || e.activityRecorded) return true;
  return serverRequests(evidence).length > 0;
}

/** The variable the harness itself gives every server (harness/drill/executor/render.ts subjectEnv): its drill token. */
const HARNESS_CREDENTIALS = new Set(['CRASH_DRILL_TOKEN']);

/** What credential a survivor holds (harness/observe/inventory.ts); the drill token counts only where the drill had a remote. */
export function survivorCredential(evidence: DrillEvidence, row: SurvivorRow): SurvivorRow['credential'] {
  if (hadRemote(evidence)) return row.credential;
  const vars = row.credential.vars.filter((v) => !HARNESS_CREDENTIALS.has(v));
  return { present: row.credential.present && vars.length > 0, vars };
}

/** Requests of the first generation until containment: not the retry's session, nor what the harness's SIGTERM provoked (a race). */
export function firstGenerationRequests(evidence: DrillEvidence): RequestRecord[] {
  const retry = sessionOf(evidence, 'retry');
  const until = firstOf(evidence, 'containment-start')?.t ?? Infinity;
  return serverRequests(evidence).filter((r) => (retry === null || r.sessionId !== retry) && r.t < until);
}

export function describeRequest(r: RequestRecord): string {
  const who = r.process ? `pid ${r.process.pid}` : 'an unattributed process';
  return `${r.method} ${r.path} (${r.credential === 'api-key' ? 'the long-lived API key' : `${r.credential} credential`}, ${who}) -> ${r.status || r.outcome}`;
}
