/** Evidence: every event of a drill, in order. Checks are pure functions of it, so a saved log can be re-checked. */
import type { ClientBehaviour, ProfileRef, StepName } from '../client-profiles/profiles.js';
import type { ClientEvent } from '../shared/protocol.js';
import type { CancelSpec, KillMode, KillPoint, ProtocolChoice, ScenarioExpect } from '../config/index.js';
import type { ActivityPhase } from '../config/index.js';
import type { SurvivorRow, TrackingInfo, UnattributedProcess } from '../observe/index.js';
import type { JobStatus, JournalEvent } from '../remote/types.js';
import type { ContainerEvidenceEvent } from '../containers/index.js';
import type { ProcessFacts } from '../observe/index.js';
import type { RuntimeFacts } from '../observe/index.js';
import type { ContainmentRecord } from '../containment/record.js';

export type { ContainmentRecord, ProcessFacts, RuntimeFacts, SurvivorRow, TrackingInfo };

/** The scenario's `expect` as normalised, without the raw file keys. */
export type ExpectOptions = Omit<ScenarioExpect, 'extra'>;

/** A remote job of the drill, as the remote held it at a moment. */
export interface RemoteJob {
  id: string;
  sessionId: string | null;
  status: JobStatus;
  createdT: number;
  settledT: number | null;
}

/** A committed effect of the drill. `operation` hashes op and target: no request body in clear. */
export interface RemoteEffect {
  id: string;
  kind: string;
  sessionId: string | null;
  op: string;
  operation: string;
  /** The Idempotency-Key; for an effect keyed by name, `name:` and a digest of the name (a name is request content). */
  idempotencyKey: string | null;
  /** `name`: its handler named the key (`commit(..., { key })`). */
  keyedBy?: 'name';
  seq: number;
  t: number;
  replays: number;
}

export interface DrillMeta {
  drillId: string;
  scenario: string;
  subject: { name: string; command: string; args: string[] };
  point: KillPoint;
  mode: KillMode;
  expect: ExpectOptions;
  /** The correlation id the target call carries (and the recovery retry re-uses). */
  correlationId: string;
  /** The drill's plan key: `scenario[/subject]/point/mode`, the same in every run. */
  key?: string;
  target?: string;
  /** The protocol the scenario asked for (auto, or a pinned revision); the era spoken is in the handshake event. */
  protocol?: ProtocolChoice;
  /** Cancel drills: the kill that follows the cancel, if any (harness/drill/executor/kill.ts). */
  cancel?: CancelSpec;
  clientProfile: ProfileRef;
}

/** What a drill's client profile says, as the drill used it (its stop sequence with the waits in force). */
export type ProfileFacts = Pick<ClientBehaviour, 'name' | 'spawn' | 'stop' | 'closesStdinWhenChildExits' | 'crash'> & {
  /** The ref the drill named (`gemini-cli@0.27-0.51`). */
  ref?: ProfileRef;
  /** The version range drilled (`>=0.52`). */
  versions?: string;
  /** The steps the drill used that rest on no source, with what they rest on instead. */
  unsourced?: { step: StepName; rests: string }[];
};

/** One action of the server's own activity record, as the drill kept it (harness/drill/executor/activity-record.ts): our field names, whatever the record's are. */
export interface ActivityEntry {
  key: string;
  phase: ActivityPhase;
  /** Its line in the record (1-based; stderr lines counted from the start of stderr). */
  line: number;
  t?: string | number;
  session?: string;
  operation?: string;
  /** A digest of the target the server named: request content, never kept in clear. */
  target?: string;
  remoteId?: string;
}

/** What the drill has read of the record so far (every count since the start). */
export interface ActivityCounts {
  lines: number;
  /** Lines that are actions (kept or dropped). */
  entries: number;
  /** Lines that are not actions: not a JSON object, or one with no phase field (another log line). */
  other: number;
  /** Lines with a phase field that are not a valid action: an unknown phase, no key, too long. */
  malformed: number;
  /** Actions left out past `record.activity-entries` (counted, not kept). */
  dropped: number;
  /** Bytes read; and bytes left unread past `record.activity-bytes`. */
  bytes: number;
  unreadBytes: number;
  problems: string[];
}

/** When the drill read the record: a write of the drill arriving at the remote (`request`: its journal seq), the server's exit, the end of the observation window, the drill's end. */
export type ActivityRead = 'request' | 'exit' | 'window-end' | 'final';

/** The process a kill point fired on (child-spawned: harness/drill/executor/child-point.ts), by identity. */
export interface PointProcess {
  pid: number;
  /** /proc start time (clock ticks since boot): with the pid, its identity. */
  startTime: number;
  cmdline: string[];
  /** When it started, ms after the target call was written (from its start time: 10 ms resolution). */
  sinceDispatchMs: number;
  aliveMs: number;
}

/** The streams a record can cut (harness/drill/executor/record-cap.ts). */
export type CutStream = 'stdout' | 'retry-stdout' | 'stderr' | 'client-stderr';

/** Events the harness itself records (the client's own events keep their client timestamp). */
export type HarnessEvent =
  /** `wall`: the wall-clock time (ISO) at this event's monotonic `t`, to date every other event. */
  | { type: 'drill-start'; meta: DrillMeta; wall?: string }
  /** Which process-tracking methods were in force, and what they cannot see. */
  | { type: 'tracking'; tracking: TrackingInfo }
  /** CPU at the drill's end (with a cgroup): `cgroupMs` all of it (cpu.stat), `clientMs` the clients' (from their zombies); the server's is the difference. */
  | { type: 'drill-cpu'; cgroupMs: number; clientMs: number | null }
  | { type: 'client-spawned'; pid: number; startTime: number; cmdline?: string[] }
  /** The client profile the drill reproduces: how it spawns, stops and loses its server. */
  | { type: 'client-profile'; profile: ProfileFacts }
  /** The client died and the kernel sent its child the profile's parent-death signal (PR_SET_PDEATHSIG). */
  | { type: 'parent-death-signal'; pid: number; startTime: number; signal: string }
  /**
   * close: the client quit once its stop sequence was done (its pipe ends close with it). `alive`:
   * the drill's processes alive as it quit, the client left out; `reachable`: those of them the
   * quit can reach (observation.ts, quitReaches); `serverExited`: the server's exit was recorded by
   * then (all absent in logs written before they were).
   */
  | { type: 'client-quit'; how: string; alive?: number; reachable?: number; serverExited?: boolean }
  /** The server's ends of its stdio, the direct child's fds 0-2 read after the handshake (null: closed or unreadable). */
  | { type: 'subject-stdio'; links: (string | null)[] }
  | { type: 'subject-stderr'; text: string }
  | { type: 'client-stderr'; text: string }
  /** A process of the drill, first seen at `t`; `startedAt` from its /proc start time, same clock. */
  | { type: 'process-new'; pid: number; startTime: number; startedAt?: number; ppid: number; pgid?: number; cmdline: string[]; foundBy: string[] }
  | { type: 'process-exit'; pid: number; startTime: number }
  /** A member's argv changed after its process-new (seen between fork and exec): what it runs now. */
  | { type: 'process-exec'; pid: number; startTime: number; cmdline: string[] }
  /** The holder (harness/drill/holder/holder.pl), a subreaper when `subreaper`; pid null: none started (`reason`). */
  | { type: 'holder'; pid: number | null; startTime: number | null; subreaper: boolean; reason?: string }
  /** The server runs in a loopback-only network (harness/drill/network/): `kind` net (as root) or user namespace. */
  | { type: 'network'; mode: 'loopback'; kind: 'net' | 'user'; keeper: { pid: number; startTime: number }; ports: number[] }
  /** A connection the server's namespace relayed to the drill remote: the sender's port inside, the remote's port, the sender named inside (null: it could not be). */
  | { type: 'network-relay'; innerPort: number; port: number; process: { pid: number; startTime: number } | null }
  /** A member's parent changed (its parent died): `toHolder` when it went to the drill's subreaper, not to init. */
  | { type: 'process-reparented'; pid: number; startTime: number; from: number; to: number; toHolder: boolean }
  /** A process no method could attribute, seen under the floor (observe/unattributed.ts); never signalled. */
  | ({ type: 'process-unattributed' } & UnattributedProcess)
  /** `process`: the process the point fired on (child-spawned). */
  | { type: 'point-reached'; point: KillPoint; detail: string; process?: PointProcess }
  | { type: 'point-timeout'; point: KillPoint; timeoutMs: number; reason: string }
  | { type: 'kill'; mode: KillMode; signal: 'SIGKILL' | 'SIGSTOP' | null; result: string }
  /** The moment the server lost its client: the SIGKILL, the first stop step, the drop or the SIGSTOP. */
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
  /** The direct child is a launcher (npx, sh -c, ...): this process below it is the real server. */
  | { type: 'real-server'; pid: number; startTime: number; cmdline: string[]; wrapper: { pid: number; startTime: number } }
  /** The launcher in front of the real server exited (null status: someone else reaped it first). */
  | { type: 'launcher-exit'; pid: number; startTime: number; code: number | null; signal: string | null }
  /** The harness starts ending the drill: what the processes do from here on is recorded, not judged. */
  | { type: 'containment-start' }
  | { type: 'containment'; records: ContainmentRecord[] }
  | { type: 'harness-error'; phase: string; message: string }
  /** Every journal event of the drill remote that concerns this drill (no token, no body). */
  | { type: 'remote'; entry: JournalEvent }
  /** An API-key request no session or process tied to any drill, seen during this drill: it may be this drill's. */
  | { type: 'remote-unattributed'; entry: JournalEvent }
  | { type: 'session'; role: 'drill' | 'retry'; sessionId: string }
  | { type: 'revoked'; sessionId: string; operator: string }
  /** GET /whoami with the revoked token, from the harness itself (pid). */
  | { type: 'probe'; status: number; denied: boolean; pid: number }
  | { type: 'api-key-rotated' }
  | { type: 'remote-state'; label: 'grace-end' | 'cancel-window' | 'final'; jobs: RemoteJob[]; effects: RemoteEffect[] }
  /** An event of the recovery retry's client (a fresh client and server, a new session). */
  | { type: 'retry'; event: DistributiveOmit<ClientEvent, 't'> }
  | { type: 'retry-end'; ok: boolean; detail: string }
  /** A bounded stream left something out (harness/drill/executor/record-cap.ts); counts are of the whole stream. */
  | {
      type: 'record-cut';
      stream: CutStream;
      /** The limit in force: lines (line streams) or bytes (byte streams). */
      limit: number;
      lineBytes: number;
      /** Lines (line streams) or chunks read (byte streams) in all, and their bytes (UTF-8). */
      total: number;
      totalBytes: number;
      /** Lines left out (line streams; 0 for byte streams, which drop bytes), and the bytes left out. */
      droppedLines: number;
      droppedBytes: number;
      /** Lines kept by their start only (longer than `lineBytes`). */
      shortenedLines: number;
      /** Monotonic times of the first and the last dropped line or chunk (null when none was dropped). */
      firstDroppedAt: number | null;
      lastDroppedAt: number | null;
    }
  | { type: 'drill-end' }
  /** Where the drill reads the server's activity record; `drillFile`: the drill's own file (CRASH_DRILL_ACTIVITY_FILE). */
  | { type: 'activity-source'; kind: 'file'; file: string; drillFile?: true }
  | { type: 'activity-source'; kind: 'stderr'; pattern: string }
  /** A read of the server's activity record: new actions in order and the counts so far; `absent`: no file yet. */
  | { type: 'activity'; read: ActivityRead; request?: number; entries: ActivityEntry[]; counts: ActivityCounts; absent?: true }
  /** What the harness read from /proc for the diagnosis (harness/observe/process-facts.ts): at `start`, the exit `deadline`, the `snapshot`. */
  | { type: 'diagnosis-facts'; label: 'start' | 'deadline' | 'snapshot'; processes: ProcessFacts[]; runtime?: RuntimeFacts | null }
  /** Containers of the drill: label, engine, the subject's container and its exit, snapshot, containment (harness/containers/). */
  | ContainerEvidenceEvent;

export type EvidenceSource = 'harness' | 'client' | 'observer' | 'remote';

export type EvidenceEvent = { seq: number; t: number; source: EvidenceSource } & (DistributiveOmit<ClientEvent, 't'> | HarnessEvent);

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
