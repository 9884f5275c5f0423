import * as z from 'zod';
import { ActivityFieldsSchema, ActivityPhasesSchema, ActivitySchema } from './activity-schema.js';
import { parseProfile, type ProfileRef } from '../client-profiles/profiles.js';
import { ExpectationSchema } from './expectation-schema.js';
import { DEFAULT_KILL_MODES, DEFAULT_KILL_POINTS, KILL_MODES, KILL_POINTS, LOSS_MODES, NETWORK_CHOICES, PROTOCOL_CHOICES } from './types.js';

/**
 * The file shape of a scenario, validated with zod 4. Every object is strict, so a misspelt key
 * is an error rather than a silent difference. `error:` messages are the "expected ..." half;
 * issues.ts adds "got ...", so no end punctuation.
 */

export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]*$/;
// POSIX leaves env names open, but `=` ends a name and NUL ends the string (environ(7)).
const ENV_NAME = /^[^=\0]+$/;
/** A file the drill writes for its subject: a plain name, no folder (`{{files.<name>}}` is its path). */
export const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const positiveMs = z.number().int().positive();
const nonNegativeMs = z.number().int().nonnegative();

function uniqueList<S extends z.ZodType<string>>(item: S, what: string) {
  return z
    .array(item)
    .min(1)
    .superRefine((list, ctx) => {
      list.forEach((v, i) => {
        if (list.indexOf(v) !== i) {
          ctx.addIssue({ code: 'custom', path: [i], message: `duplicate ${what} "${v}"; list each once` });
        }
      });
    });
}

/** A client profile, optionally at a version or range (`gemini-cli@0.27-0.51`), to its canonical ref. */
export const ProfileRefSchema = z.string().transform((text, ctx): ProfileRef => {
  const parsed = parseProfile(text);
  if (parsed.ok) return parsed.ref;
  ctx.addIssue({ code: 'custom', message: parsed.message });
  return z.NEVER;
});

export const SubjectSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string().regex(ENV_NAME, { error: 'expected an environment variable name without "="' }), z.string()).default({}),
  cwd: z.string().min(1).optional(),
  /** Files written into the drill's temp folder (0600) before the server starts: name -> text, templated like env. */
  files: z.record(z.string().regex(FILE_NAME, { error: 'expected a file name of letters, digits, ".", "_", "-" (no folder)' }), z.string()).optional(),
  name: z.string().min(1).optional(),
  /** This server's cleanup expectation (harness/expectation/); replaces the scenario's for this subject. */
  expectation: ExpectationSchema.optional(),
  /** Where its activity record is read, when it logs its own way (harness/config/activity-schema.ts). */
  activity: ActivitySchema.optional(),
});

export const ToolCallSchema = z.strictObject({
  call: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});

/** A setup step: exactly one of call, subscribe (resources/subscribe, 2025-11-25) and listen (subscriptions/listen, 2026-07-28). */
export const ListenSchema = z.strictObject({
  'tools-list-changed': z.boolean().optional(),
  'prompts-list-changed': z.boolean().optional(),
  'resources-list-changed': z.boolean().optional(),
  'resource-subscriptions': z.array(z.string().min(1)).optional(),
});

export const SetupStepSchema = z
  .strictObject({
    call: z.string().min(1).optional(),
    args: z.record(z.string(), z.unknown()).default({}),
    subscribe: z.string().min(1).optional(),
    listen: ListenSchema.optional(),
  })
  .superRefine((step, ctx) => {
    const given = (['call', 'subscribe', 'listen'] as const).filter((k) => step[k] !== undefined);
    if (given.length === 0)
      ctx.addIssue({ code: 'custom', path: ['call'], message: 'missing; expected a string (a tool name), or instead subscribe: <uri> or listen: { ... }' });
    if (given.length > 1)
      ctx.addIssue({ code: 'custom', path: [given[1]], message: `expected one of call, subscribe and listen in a setup step, got ${given.join(' and ')}` });
  });

/** A cancel drill may kill the client later: "the cancel was ignored, and then the client died". */
export const CancelSchema = z.strictObject({
  then: z.enum(LOSS_MODES, { error: `expected a kill mode that ends the client (${LOSS_MODES.join(', ')})` }).optional(),
  after: nonNegativeMs.optional(),
});

/** Which child the `child-spawned` point fires on: any program of its own, or the one named. */
export const ChildSchema = z
  .strictObject({
    command: z.string().min(1).optional(),
    pattern: z
      .string()
      .min(1)
      .refine((p) => validRegExp(p), { error: 'expected a regular expression (JavaScript syntax)' })
      .optional(),
    /** ms the child must live after its exec */
    'alive-for': nonNegativeMs.optional(),
  })
  .superRefine((child, ctx) => {
    if (child.command !== undefined && child.pattern !== undefined)
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'expected either command or pattern, not both' });
  });

function validRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

export const TimeoutsSchema = z.strictObject({
  handshake: positiveMs.optional(),
  point: positiveMs.optional(),
  'in-flight-delay': nonNegativeMs.optional(),
  'close-wait': positiveMs.optional(),
  /** protocol auto: the server/discover probe's timeout before falling back to initialize. */
  discover: positiveMs.optional(),
});

const positiveCount = z.number().int().positive();

/** How much of the server's stdout noise and stderr one drill records (harness/drill/executor/record-cap.ts). */
export const RecordSchema = z.strictObject({
  'stdout-lines': positiveCount.optional(),
  'stderr-bytes': positiveCount.optional(),
  'line-bytes': positiveCount.optional(),
  'unterminated-bytes': positiveCount.optional(),
  'activity-entries': positiveCount.optional(),
  'activity-bytes': positiveCount.optional(),
});

export const ExitOnEofSchema = z.strictObject({ deadline: positiveMs.optional() });
export const NoSurvivorsSchema = z.strictObject({ grace: nonNegativeMs.optional() });

/** The checks that judge the drill remote's journal; also kept raw in `expect.extra`. */
export const EXTRA_EXPECT_KEYS = ['idempotent-effects', 'denied-after-revocation', 'quiet-after-loss', 'jobs-settled'] as const;

export const JobsSettledSchema = z.strictObject({ grace: nonNegativeMs.optional() });
export const SilentAfterCancelSchema = z.strictObject({ 'outlasts-cancel': z.boolean().optional() });
export const DeadlineSchema = z.strictObject({ deadline: positiveMs.optional() });

export const ExpectSchema = z.strictObject({
  'exit-on-eof': z.union([z.boolean(), ExitOnEofSchema], { error: 'expected true, false or a mapping { deadline: ms }' }).optional(),
  'no-survivors': z.union([z.boolean(), NoSurvivorsSchema], { error: 'expected true, false or a mapping { grace: ms }' }).optional(),
  'stdout-clean': z.boolean().optional(),
  'idempotent-effects': z.boolean().optional(),
  'denied-after-revocation': z.boolean().optional(),
  'quiet-after-loss': z.boolean().optional(),
  'jobs-settled': z.union([z.boolean(), JobsSettledSchema], { error: 'expected true, false or a mapping { grace: ms }' }).optional(),
  'silent-after-cancel': z.union([z.boolean(), SilentAfterCancelSchema], { error: 'expected true, false or a mapping { outlasts-cancel: true }' }).optional(),
  'stops-after-cancel': z.union([z.boolean(), DeadlineSchema], { error: 'expected true, false or a mapping { deadline: ms }' }).optional(),
  'alive-after-cancel': z.union([z.boolean(), DeadlineSchema], { error: 'expected true, false or a mapping { deadline: ms }' }).optional(),
  'activity-recorded': z.boolean().optional(),
});

const HTTP_METHOD = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], { error: 'expected an HTTP method (GET, POST, PUT, PATCH, DELETE)' });

export const RouteSchema = z.strictObject({
  method: HTTP_METHOD,
  path: z.string().startsWith('/', { error: 'expected a path starting with /' }),
});

export const TriggerSchema = z.strictObject({
  method: HTTP_METHOD.optional(),
  path: z.string().startsWith('/', { error: 'expected a path starting with /' }).optional(),
});

export const FaultSchema = z.strictObject({
  kind: z.enum(['drop-after-commit', 'delay', 'status']),
  ms: nonNegativeMs.optional(),
  status: z.number().int().min(500).max(599).optional(),
  times: z.number().int().positive().optional(),
  match: TriggerSchema.optional(),
});

/** The drill remote: the server's side of the wire (credentials, the API, gates, faults). */
export const RemoteSchema = z.strictObject({
  /** A module (path relative to the scenario file) whose `handlers` export is a list of msw 2 handlers. */
  handlers: z.string().min(1).optional(),
  writes: z.array(RouteSchema).default([]),
  'job-duration': positiveMs.optional(),
  /** Which request is the kill point for `sent` and `confirmed`; default: the first write after dispatch. */
  trigger: TriggerSchema.optional(),
  /** What the remote does with the held request once the client is dead. */
  'after-gate': z.enum(['proceed', 'fail', 'drop']).default('proceed'),
  fault: FaultSchema.optional(),
  /** How long after the client is lost the harness revokes the session. */
  'revoke-after': nonNegativeMs.default(0),
  /** Containment also rotates the long-lived API key ({{remote.apiKey}}). */
  'rotate-api-key': z.boolean().default(false),
  /** Node subjects: origins whose HTTP the preload routes to the remote (a server with a hard-coded API host). */
  intercept: z.array(z.string().regex(/^https?:\/\/[^/\s]+\/?$/, { error: 'expected an origin such as https://api.example.com' })).default([]),
  /** The subject trusts the run's CA (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, ..., harness/remote/tls/trust-env.ts); false leaves its trust alone. */
  trust: z.boolean().default(true),
});

export const ScenarioSchema = z
  .strictObject({
    id: z.string().regex(ID_PATTERN, {
      error: `expected an id matching ${ID_PATTERN.source.slice(1, -1)} (lower-case letters, digits, ".", "_", "-")`,
    }),
    description: z.string().optional(),
    /** The server under test; or `subjects`, several servers drilled with the same scenario side by side. */
    subject: SubjectSchema.optional(),
    subjects: z.array(SubjectSchema).min(1).optional(),
    setup: z.array(SetupStepSchema).default([]),
    /** Required where a point needs it (POINT_NEEDS: every point but idle); checked after the schema (parse.ts). */
    target: ToolCallSchema.optional(),
    points: uniqueList(z.enum(KILL_POINTS), 'kill point').default([...DEFAULT_KILL_POINTS]),
    modes: uniqueList(z.enum(KILL_MODES), 'kill mode').default([...DEFAULT_KILL_MODES]),
    protocol: z.enum(PROTOCOL_CHOICES, { error: `expected one of ${PROTOCOL_CHOICES.join(', ')}` }).default('auto'),
    /** The clients whose spawn, stop and crash the drills reproduce, each drill once per profile (harness/client-profiles/). */
    'client-profiles': uniqueList(ProfileRefSchema, 'client profile').optional(),
    cancel: CancelSchema.optional(),
    /** The child the child-spawned point waits for (harness/drill/executor/child-point.ts). */
    child: ChildSchema.optional(),
    timeouts: TimeoutsSchema.optional(),
    record: RecordSchema.optional(),
    remote: RemoteSchema.optional(),
    /** After a crash, re-issue the target call from a fresh client and server (a new session). Default: when idempotent-effects applies. */
    retry: z.boolean().optional(),
    /** The server's network: the host's, or a namespace where only loopback exists (docs/network.md). */
    network: z.enum(NETWORK_CHOICES, { error: `expected one of ${NETWORK_CHOICES.join(', ')}` }).default('host'),
    expect: ExpectSchema.optional(),
    /** The cleanup expectation of every subject this scenario drills (harness/expectation/): statements a drill can show. */
    expectation: ExpectationSchema.optional(),
  })
  // A missing subject is checked after the schema (parse.ts): `--subject` may stand in for it.
  .superRefine((scenario, ctx) => {
    if (scenario.subject !== undefined && scenario.subjects !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['subjects'], message: 'expected either subject or subjects, not both' });
    }
  });

export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type ParsedScenario = z.output<typeof ScenarioSchema>;

/** The keys each object accepts, by field path (list indexes as `[]`), for "did you mean" on unknown keys. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(ScenarioSchema.shape),
  subject: Object.keys(SubjectSchema.shape),
  'subjects[]': Object.keys(SubjectSchema.shape),
  'subject.activity': Object.keys(ActivitySchema.shape),
  'subjects[].activity': Object.keys(ActivitySchema.shape),
  'subject.activity.fields': Object.keys(ActivityFieldsSchema.shape),
  'subjects[].activity.fields': Object.keys(ActivityFieldsSchema.shape),
  'subject.activity.phases': Object.keys(ActivityPhasesSchema.shape),
  'subjects[].activity.phases': Object.keys(ActivityPhasesSchema.shape),
  'setup[]': Object.keys(SetupStepSchema.shape),
  'setup[].listen': Object.keys(ListenSchema.shape),
  cancel: Object.keys(CancelSchema.shape),
  child: Object.keys(ChildSchema.shape),
  target: Object.keys(ToolCallSchema.shape),
  timeouts: Object.keys(TimeoutsSchema.shape),
  record: Object.keys(RecordSchema.shape),
  expect: Object.keys(ExpectSchema.shape),
  'expect.exit-on-eof': Object.keys(ExitOnEofSchema.shape),
  'expect.no-survivors': Object.keys(NoSurvivorsSchema.shape),
  'expect.jobs-settled': Object.keys(JobsSettledSchema.shape),
  'expect.silent-after-cancel': Object.keys(SilentAfterCancelSchema.shape),
  'expect.stops-after-cancel': Object.keys(DeadlineSchema.shape),
  'expect.alive-after-cancel': Object.keys(DeadlineSchema.shape),
  remote: Object.keys(RemoteSchema.shape),
  'remote.writes[]': Object.keys(RouteSchema.shape),
  'remote.trigger': Object.keys(TriggerSchema.shape),
  'remote.fault': Object.keys(FaultSchema.shape),
  'remote.fault.match': Object.keys(TriggerSchema.shape),
};
