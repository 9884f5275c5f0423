import { profileKeySuffix, type ProfileRef, type StepName } from '../client-profiles/profiles.js';
import { runChecks, type CheckResult } from '../checks/all-checks.js';
import type { Verdict } from '../checks/types.js';
import type { KillMode, KillPoint } from '../config/index.js';
import { firstOf, type ContainmentRecord, type DrillEvidence, type PointProcess, type SurvivorRow, type TrackingInfo } from '../evidence/types.js';
import { containmentRecordsOf } from '../evidence/containment-queries.js';
import { survivorCredential } from '../evidence/queries.js';
import { eraOf, type DrillEra } from './era-info.js';
import { exitInfo } from './exit-info.js';
import type { ExitInfo } from './exit-info-types.js';
import { containersResult, type ContainersResult } from './containers.js';
import { incidentRecord, type IncidentRecord } from './incident.js';
import { diagnose } from './diagnosis.js';

export interface DrillResult {
  id: string;
  /** `<scenario>/<point>/<mode>`, with `@<profile>` under a client profile other than the default: the same drill in every run, so shards and repeats can be matched. */
  key: string;
  /** Position in the full plan (set by the run; absent when a result is re-judged from a log alone). */
  index?: number;
  /** 1-based attempt of this drill when the run repeats drills; absent means 1. */
  attempt?: number;
  scenario: string;
  subject: { name: string; command: string; args: string[] };
  point: KillPoint;
  mode: KillMode;
  /** The client profile the drill ran under (harness/client-profiles/): whose spawn, stop and crash it reproduced. */
  clientProfile: ProfileRef;
  /** The range of the client's versions the profile's behaviour holds for (`>=0.52`). */
  clientVersions?: string;
  /** The profile's steps the drill used that rest on no source (harness/client-profiles/), with what they rest on. */
  unsourcedSteps?: { step: StepName; rests: string }[];
  /** `known` only after a baseline absorbed every failed check (harness/baseline). */
  verdict: Verdict | 'known';
  /** Failed checks a baseline lists (shown as known, apart from new failures). */
  known?: { check: CheckResult['id']; reason: string }[];
  reason: string;
  checks: CheckResult[];
  survivors: SurvivorRow[];
  exit: ExitInfo | null;
  tracking: TrackingInfo | null;
  handshake: { serverName: string | null; serverVersion: string | null; protocolVersion: string | null } | null;
  /** The protocol era spoken and how it was chosen (probed, fell-back, pinned); null when no handshake completed. */
  era: DrillEra | null;
  containment: ContainmentRecord[];
  /** The process the kill point fired on (child-spawned: the child the call started); absent elsewhere. */
  pointProcess?: PointProcess;
  forcedContainment: boolean;
  /** The drill's containers (harness/containers/), when the subject used a container engine. */
  containers?: ContainersResult | null;
  durationMs: number;
  incident: IncidentRecord;
  /** The drill's hash-chained evidence log in the report folder, when one was written. */
  evidence: { file: string; head: string; records: number } | null;
}

/** Evidence in, result out: pure, so a saved log gives the same result as the live run. */
export function judge(evidence: DrillEvidence): DrillResult {
  const checks = runChecks(evidence);
  const { verdict, reason } = drillVerdict(evidence, checks);
  const { meta, events } = evidence;
  const snapshot = firstOf(evidence, 'snapshot');
  const handshake = firstOf(evidence, 'handshake');
  const containment = containmentRecordsOf(evidence);
  const exit = exitInfo(evidence);
  const containers = containersResult(evidence);
  const pointProcess = firstOf(evidence, 'point-reached')?.process;
  const profile = firstOf(evidence, 'client-profile')?.profile;
  return {
    id: meta.drillId,
    key: meta.key ?? `${meta.scenario}/${meta.point}/${meta.mode}${profileKeySuffix(meta.clientProfile)}`,
    scenario: meta.scenario,
    subject: meta.subject,
    point: meta.point,
    mode: meta.mode,
    clientProfile: meta.clientProfile,
    ...(profile?.versions ? { clientVersions: profile.versions } : {}),
    ...(profile?.unsourced?.length ? { unsourcedSteps: profile.unsourced } : {}),
    verdict,
    reason,
    checks,
    survivors: (snapshot?.survivors ?? []).map((s) => ({ ...s, credential: survivorCredential(evidence, s) })),
    exit,
    tracking: firstOf(evidence, 'tracking')?.tracking ?? null,
    handshake: handshake ? { serverName: handshake.serverName, serverVersion: handshake.serverVersion, protocolVersion: handshake.protocolVersion } : null,
    era: eraOf(evidence),
    containment,
    ...(pointProcess ? { pointProcess } : {}),
    forcedContainment: containment.some((r) => r.forced) || (containers?.forced ?? false),
    ...(containers ? { containers } : {}),
    durationMs: events.length > 1 ? Math.round(events[events.length - 1].t - events[0].t) : 0,
    incident: incidentRecord(evidence, checks, exit, diagnose(evidence, checks)),
    evidence: null,
  };
}

/** A drill's verdict: `error` (harness or setup failed), else `fail`, else `unknown` (a check unknown or the point not reached), else `pass`. */
export function drillVerdict(evidence: DrillEvidence, checks: CheckResult[]): { verdict: Verdict; reason: string } {
  const error = firstOf(evidence, 'harness-error');
  if (error) return { verdict: 'error', reason: `${error.phase}: ${error.message}` };
  const failed = checks.filter((check) => check.verdict === 'fail');
  if (failed.length > 0) return { verdict: 'fail', reason: failed.map((check) => `${check.id}: ${check.summary}`).join(' | ') };
  const timeout = firstOf(evidence, 'point-timeout');
  if (timeout) return { verdict: 'unknown', reason: `kill point ${timeout.point} not reached within ${timeout.timeoutMs} ms: ${timeout.reason}` };
  const unknown = checks.filter((check) => check.verdict === 'unknown');
  if (unknown.length > 0) return { verdict: 'unknown', reason: unknown.map((check) => `${check.id}: ${check.summary}`).join(' | ') };
  if (checks.length === 0) return { verdict: 'unknown', reason: 'no check applies to this drill' };
  return { verdict: 'pass', reason: checks.map((check) => check.summary).join('; ') };
}
