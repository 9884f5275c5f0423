/**
 * Evidence: every event observed during a drill, in order. Checks are pure functions of this
 * and nothing else, so a saved evidence log can be re-checked without re-running anything.
 */
import type { ClientEvent } from '../client/protocol.js';
import type { KillMode, KillPoint } from '../config/index.js';
import type { ContainmentRecord, SurvivorRow, TrackingInfo } from '../observe/index.js';

export type { ContainmentRecord, SurvivorRow, TrackingInfo };

export interface ExpectOptions {
  exitOnEof: { deadline: number } | null;
  noSurvivors: { grace: number } | null;
  stdoutClean: boolean;
}

export interface DrillMeta {
  drillId: string;
  scenario: string;
  subject: { name: string; command: string; args: string[] };
  point: KillPoint;
  mode: KillMode;
  expect: ExpectOptions;
}

/** Events the harness itself records (the client's own events keep their client timestamp). */
export type HarnessEvent =
  | { type: 'drill-start'; meta: DrillMeta }
  /** Which process-tracking methods were in force, and what they cannot see. */
  | { type: 'tracking'; tracking: TrackingInfo }
  | { type: 'client-spawned'; pid: number; startTime: number }
  | { type: 'subject-stderr'; text: string }
  | { type: 'client-stderr'; text: string }
  | { type: 'process-new'; pid: number; startTime: number; ppid: number; cmdline: string[]; foundBy: string[] }
  | { type: 'process-exit'; pid: number; startTime: number }
  | { type: 'point-reached'; point: KillPoint; detail: string }
  | { type: 'point-timeout'; point: KillPoint; timeoutMs: number; reason: string }
  | { type: 'kill'; mode: KillMode; signal: 'SIGKILL' | 'SIGSTOP' | null; result: string }
  /** The moment the server lost its client: the SIGKILL (crash), stdin closed (close), SIGSTOP (hang). */
  | { type: 'client-lost'; mode: KillMode; how: string }
  | {
      type: 'server-exit';
      pid: number;
      startTime: number;
      code: number | null;
      signal: string | null;
      observedBy: 'client' | 'observer';
    }
  | { type: 'signal'; pid: number; startTime: number; signal: string; by: 'harness' | 'client'; result: string }
  | { type: 'snapshot'; label: 'grace-end' | 'hang-window'; early: boolean; survivors: SurvivorRow[] }
  | { type: 'containment'; records: ContainmentRecord[] }
  | { type: 'harness-error'; phase: string; message: string }
  | { type: 'drill-end' };

export type EvidenceSource = 'harness' | 'client' | 'observer';

export type EvidenceEvent = { seq: number; t: number; source: EvidenceSource } & (
  | DistributiveOmit<ClientEvent, 't'>
  | HarnessEvent
);

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type EvidenceOf<T extends EvidenceEvent['type']> = Extract<EvidenceEvent, { type: T }>;

export interface DrillEvidence {
  meta: DrillMeta;
  events: EvidenceEvent[];
}

export function eventsOf<T extends EvidenceEvent['type']>(evidence: DrillEvidence, type: T): EvidenceOf<T>[] {
  return evidence.events.filter((event): event is EvidenceOf<T> => event.type === type);
}

export function firstOf<T extends EvidenceEvent['type']>(evidence: DrillEvidence, type: T): EvidenceOf<T> | undefined {
  return evidence.events.find((event): event is EvidenceOf<T> => event.type === type);
}
