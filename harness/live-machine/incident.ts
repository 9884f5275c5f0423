/**
 * A containment's incident record in the drill's shape (harness/results/incident.ts), moments from
 * the snapshot; what a live machine cannot tell is null, and the follow-up says so.
 */
import type { IncidentRecord, Moment } from '../results/incident.js';
import type { Snapshot } from './inspect.js';
import type { ProbeOutcome } from '../containment/probe.js';

export interface IncidentInput {
  snapshot: Snapshot;
  t0: number;
  wall0: number;
  revokedAt: number | null;
  revocations: ProbeOutcome[];
  probes: ProbeOutcome[];
  termination: string;
  forced: boolean;
  survivors: number[];
}

export function containIncident(input: IncidentInput): IncidentRecord {
  const moment = (t: number): Moment => ({ ms: Math.round(t - input.t0), at: new Date(input.wall0 + (t - input.t0)).toISOString() });
  const s = input.snapshot;
  const client = s.stdio?.flatMap((d) => d.holders ?? [])[0];
  const followUp: string[] = [];
  if (s.credentials && s.credentials.length > 0)
    followUp.push(`process ${s.process.pid} held credentials in its environment (${s.credentials.join(', ')}): rotate them`);
  if (input.revocations.length === 0) followUp.push('no revocation was run: whatever authority it held may still be valid');
  if (input.probes.some((p) => p.result === 'allowed')) followUp.push('a probe was still allowed after revocation: find why revocation did not take');
  if (input.forced) followUp.push('forced containment, cleanup may be incomplete: check what its handlers left half done');
  for (const pid of input.survivors) followUp.push(`process ${pid} survived containment: it is still running`);
  followUp.push('when the client went away and what the server last did are not known on a live machine: see its logs');
  return {
    observedAt: moment(input.t0),
    client: client ? { pid: client.pid, command: client.command } : null,
    server: { pid: s.process.pid, command: s.process.command, ppid: s.process.ppid, pgid: s.process.pgid },
    sessionId: s.marker,
    authorization: input.revocations.length === 0 ? 'no revocation was run' : input.revocations.map((r) => `${r.what}: ${r.result} (${r.detail})`).join('; '),
    clientUnavailableAt: null,
    lastActionStartedAt: null,
    lastSuccessfulActionAt: null,
    lastAttemptedActionAt: null,
    action: null,
    result: { effects: [], jobs: [] },
    revocation: input.revokedAt === null ? null : { at: moment(input.revokedAt), operator: 'crash-drill contain' },
    termination: input.termination,
    // No drill client spoke to it: the era is the server's own business here.
    protocol: 'not observed (a live process, not a drill)',
    cancelledAt: null,
    followUp,
    findings: [],
  };
}
