/** The normalised shapes a scenario file turns into (the file shape is `ScenarioInput`, schema.ts): defaults filled, paths absolute. */
import type { ProfileRef } from '../client-profiles/profiles.js';
import type { DeclaredStatement } from './statements.js';

export type KillPoint = 'idle' | 'pre-dispatch' | 'in-flight' | 'sent' | 'confirmed' | 'child-spawned' | 'after-response';

/**
 * How the target call ends: the client is killed (`crash`), stops the server with its profile's
 * stop sequence and quits (`close`) or lives on (`stop`), drops it with neither EOF nor a signal
 * (`abandon`), freezes (`hang`), or cancels the call and keeps reading (`cancel`).
 */
export type KillMode = 'crash' | 'close' | 'stop' | 'abandon' | 'hang' | 'cancel';

/** The kill modes that end the client; a cancel drill may add one after the cancel (`cancel.then`). */
export type LossMode = Exclude<KillMode, 'cancel'>;

/** The era the drill client speaks: `auto` probes with `server/discover` and falls back to `initialize`; a revision pins it. */
export type ProtocolChoice = 'auto' | '2025-11-25' | '2026-07-28';

export const PROTOCOL_CHOICES: readonly ProtocolChoice[] = Object.freeze(['auto', '2025-11-25', '2026-07-28'] as const);

/** The network the server runs in: the host's, or a loopback-only namespace (harness/drill/network/, docs/network.md). */
export type NetworkChoice = 'host' | 'loopback';

export const NETWORK_CHOICES: readonly NetworkChoice[] = Object.freeze(['host', 'loopback'] as const);

/** The points where a call is in flight, so a cancel has something to cancel. */
export const CANCEL_POINTS: readonly KillPoint[] = Object.freeze(['in-flight', 'sent', 'confirmed', 'child-spawned'] as const);

/** What a kill point needs: a target call, and the server's writes at the drill remote (`sent`, `confirmed`). */
export interface PointNeeds {
  target: boolean;
  remote: boolean;
}

export const POINT_NEEDS: Readonly<Record<KillPoint, PointNeeds>> = Object.freeze({
  idle: { target: false, remote: false },
  'pre-dispatch': { target: true, remote: false },
  'in-flight': { target: true, remote: false },
  sent: { target: true, remote: true },
  confirmed: { target: true, remote: true },
  'child-spawned': { target: true, remote: false },
  'after-response': { target: true, remote: false },
});

/** Every kill point, in the order a call passes through them (docs/design.md, "Kill points"). */
export const KILL_POINTS: readonly KillPoint[] = Object.freeze([
  'idle',
  'pre-dispatch',
  'in-flight',
  'sent',
  'confirmed',
  'child-spawned',
  'after-response',
] as const);

export const KILL_MODES: readonly KillMode[] = Object.freeze(['crash', 'close', 'stop', 'abandon', 'hang', 'cancel'] as const);

/** The modes a scenario drills when it names none: cancel is opt-in (it needs a call to cancel). */
export const DEFAULT_KILL_MODES: readonly KillMode[] = Object.freeze(['crash', 'close', 'hang'] as const);

/** The loss modes a cancel drill may add after its cancel (`cancel.then`). */
export const LOSS_MODES: readonly LossMode[] = Object.freeze(['crash', 'close', 'hang'] as const);

/** The modes in which the client lives on after the server lost its session: it is left out of the survivors. */
export const CLIENT_LIVES_MODES: readonly KillMode[] = Object.freeze(['stop', 'abandon', 'hang', 'cancel'] as const);

/** The points a scenario tries when it names none: `sent` and `confirmed` need the drill remote to be in the server's path, which not every subject has. */
export const DEFAULT_KILL_POINTS: readonly KillPoint[] = Object.freeze(['idle', 'pre-dispatch', 'in-flight', 'child-spawned', 'after-response'] as const);

/** The phases of an action in the server's own activity record (docs/remote.md, "The server's own activity record"). */
export type ActivityPhase = 'started' | 'result' | 'unresolved';

export const ACTIVITY_PHASES: readonly ActivityPhase[] = Object.freeze(['started', 'result', 'unresolved'] as const);

export type ActivityField = 't' | 'key' | 'phase' | 'session' | 'operation' | 'target' | 'remoteId';

/** Where a drill reads the server's activity record, and how its lines name our fields and phases (harness/config/activity-schema.ts). */
export interface ActivitySpec {
  /** A file (its path templated like env; by default `{{activity.file}}`), or the server's stderr lines that match `pattern`. */
  source: { kind: 'file'; path: string } | { kind: 'stderr'; pattern: string };
  /** The record's own name of each field (dotted when nested) and value of each phase. */
  fields: Record<ActivityField, string>;
  phases: Record<ActivityPhase, string>;
}

export interface SubjectSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute, unless it starts with a template; then it is absolute once rendered (renderScenario). */
  cwd: string;
  /** Files the drill writes into its temp folder before the server starts (name -> text, templated); `{{files.<name>}}` is the path. */
  files?: Record<string, string>;
  /** This server's own cleanup expectation (harness/expectation/), in place of its scenario's. */
  expectation?: DeclaredStatement[];
  /** Where its activity record is read when it logs its own way (`activity:`); absent: the drill's own file, our format. */
  activity?: ActivitySpec;
}

export interface ToolCallSpec {
  call: string;
  args: Record<string, unknown>;
}

/** A setup step: a tool call, `subscribe` (resources/subscribe, 2025-11-25) or `listen` (subscriptions/listen, 2026-07-28); `call` holds the method, `args` its params. */
export interface SetupStep extends ToolCallSpec {
  kind?: 'tool' | 'subscribe' | 'listen';
}

/** A cancel drill's optional second half: kill the client this long after the cancel. */
export interface CancelSpec {
  then: LossMode | null;
  after: number;
}

/** Which process `child-spawned` fires on (harness/drill/executor/child-point.ts): a new descendant running a program of its own, alive `aliveFor` ms. */
export interface ChildSpec {
  /** argv[0] or its basename, exactly (`chrome`, `/usr/bin/sleep`); null: any program */
  command: string | null;
  /** a regular expression tested against the argv joined by spaces; null: any */
  pattern: string | null;
  /** how long it must live after its exec was seen, ms (a probe such as `python3 --version` lives less) */
  aliveFor: number;
}

/** In ms; `point`: to reach the kill point; `inFlightDelay`: after the target call is written, before killing at in-flight. */
export interface ScenarioTimeouts {
  /** spawn + initialize + setup, ms */
  handshake: number;
  point: number;
  inFlightDelay: number;
  /** close and stop: replaces every wait of the profile's stop sequence, ms; null: the profile's own. */
  closeWait: number | null;
  /** protocol auto: how long the server/discover probe may take before the client falls back to initialize, ms */
  discover: number;
}

/** How much of what the server writes outside the protocol one drill records (harness/drill/executor/record-cap.ts). */
export interface RecordLimits {
  /** stdout lines that are not JSON-RPC: half kept from the start, half from the end */
  stdoutLines: number;
  /** stderr: half the characters kept from the start, half from the end */
  stderrBytes: number;
  /** the longest stdout line recorded whole; a longer one keeps its start */
  lineBytes: number;
  /** the longest stdout line held while waiting for its newline (also the largest JSON-RPC message read) */
  unterminatedBytes: number;
  /** the server's activity record: entries kept (the first ones; the rest counted) */
  activityEntries: number;
  /** the server's activity record: bytes read at most */
  activityBytes: number;
}

export interface ScenarioExpect {
  exitOnEof: { deadline: number } | null;
  noSurvivors: { grace: number } | null;
  stdoutClean: boolean;
  /** The remote checks as written in the file, kept raw under their file keys. */
  extra: Record<string, unknown>;
  /** The remote checks that apply: those `expect` turns on, all four by default with a `remote:` section. */
  idempotentEffects: boolean;
  deniedAfterRevocation: boolean;
  quietAfterLoss: boolean;
  jobsSettled: { grace: number } | null;
  /** Cancel drills only. `outlastsCancel`: the call's work cannot end before the server reads the cancel. */
  silentAfterCancel: { outlastsCancel: boolean } | null;
  /** `deadline`: the cancel drill's observation window, and how long a spawned child may take to end. */
  stopsAfterCancel: { deadline: number } | null;
  /** `deadline`: how long the follow-up tools/list may take to be answered. */
  aliveAfterCancel: { deadline: number } | null;
  /** activity-recorded: the server's record names every write before it arrived and ends every action it started. */
  activityRecorded?: boolean;
}

export interface Scenario {
  id: string;
  description?: string;
  file: string;
  dir: string;
  /** The (first) server under test; a drill's scenario has exactly the one it drills. */
  subject: SubjectSpec;
  /** Every server the scenario names (`subjects:`), compared side by side; [subject] otherwise. */
  subjects: SubjectSpec[];
  setup: SetupStep[];
  /** The call the client dies around; null when the scenario drills only points that need none (`idle`: POINT_NEEDS). */
  target: ToolCallSpec | null;
  points: KillPoint[];
  modes: KillMode[];
  protocol: ProtocolChoice;
  /** The clients whose spawn, stop and crash the drills reproduce (harness/client-profiles/), each drill once per profile; absent: the default profile alone (ts-sdk). */
  clientProfiles?: ProfileRef[];
  /** Cancel drills: what follows the cancel (default nothing). */
  cancel: CancelSpec;
  child: ChildSpec;
  timeouts: ScenarioTimeouts;
  record: RecordLimits;
  remote: ScenarioRemote;
  /** Re-issue the target call from a fresh client and server after the crash. */
  retry: boolean;
  /** The server's network (default host); `--network` overrides it for every scenario. */
  network: NetworkChoice;
  expect: ScenarioExpect;
  /** The cleanup expectation of every subject this scenario drills, unless a subject has its own (harness/expectation/). */
  expectation?: DeclaredStatement[];
}

export interface RouteMatchSpec {
  method?: string;
  path?: string;
}

export interface ScenarioRemote {
  /** Absolute path of a module exporting `handlers` (msw 2), or null for the built-in API only. */
  handlers: string | null;
  writes: Array<{ method: string; path: string }>;
  jobDuration: number | null;
  trigger: RouteMatchSpec | null;
  afterGate: 'proceed' | 'fail' | 'drop';
  fault: { kind: 'drop-after-commit' | 'delay' | 'status'; ms?: number; status?: number; times?: number; match?: RouteMatchSpec } | null;
  revokeAfter: number;
  rotateApiKey: boolean;
  /** Origins whose HTTP(S) goes to the remote: a Node subject's preload (harness/preload) and the intercept proxy (harness/remote/proxy). */
  intercept: string[];
  /** Whether the subject's environment trusts the run's CA (harness/remote/tls/trust-env.ts). */
  trust: boolean;
  /** Whether the file had a `remote:` section (then the remote checks apply by default). */
  declared: boolean;
}

/** Values for the `{{...}}` templates of one drill. Missing values make rendering throw. */
export interface TemplateContext {
  remoteUrl?: string;
  /** The remote's HTTPS listener, its CA's PEM file and that PEM in base64 (harness/remote/tls/). */
  remoteHttpsUrl?: string;
  remoteCaFile?: string;
  remoteCaBase64?: string;
  /** The paths of the subject's files (`subject.files`), by name. */
  files?: Record<string, string>;
  /** The drill's activity record file (`{{activity.file}}`, CRASH_DRILL_ACTIVITY_FILE). */
  activityFile?: string;
  remoteApiKey?: string;
  sessionToken?: string;
  runId: string;
  tmp: string;
  scenarioDir: string;
}
