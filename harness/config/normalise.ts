import path from 'node:path';
import { subjectName } from './subject-name.js';
import type { ParsedScenario } from './schema.js';
import { EXTRA_EXPECT_KEYS } from './schema.js';
import { normaliseActivity } from './activity-schema.js';
import { normaliseExpectation } from './expectation-normalise.js';
import type { CancelSpec, RecordLimits, Scenario, ScenarioExpect, ScenarioRemote, ScenarioTimeouts, SetupStep, SubjectSpec } from './types.js';

/** How much of a server's stdout noise and stderr a drill records (harness/drill/executor/record-cap.ts has the why). */
export const DEFAULT_RECORD_LIMITS: Readonly<RecordLimits> = Object.freeze({
  stdoutLines: 200,
  stderrBytes: 64 * 1024,
  lineBytes: 8 * 1024,
  unterminatedBytes: 16 * 1024 * 1024,
  activityEntries: 1000,
  activityBytes: 16 * 1024 * 1024,
});

/** Defaults for the numbers a file may leave out (docs/design.md; close-wait: each client profile's own waits). */
export const DEFAULT_TIMEOUTS: Readonly<ScenarioTimeouts> = Object.freeze({
  handshake: 30_000,
  point: 5_000,
  inFlightDelay: 0,
  closeWait: null,
  discover: 2_000,
});

export const DEFAULT_CANCEL_DEADLINE_MS = 2_000;

/** How long the child-spawned point's child must live after its exec: longer than a version probe, shorter than a call's working child. */
export const DEFAULT_CHILD_ALIVE_MS = 200;

export const DEFAULT_EXIT_DEADLINE_MS = 2_000;
export const DEFAULT_SURVIVOR_GRACE_MS = 2_000;

/** Fills in every default and makes paths absolute; a file with no subject drills `given` (the run's `--subject`s). */
export function normaliseScenario(parsed: ParsedScenario, file: string, given: readonly SubjectSpec[] = []): Scenario {
  const dir = path.dirname(file);
  const exitDeadline = normaliseExpect(parsed.expect, false).exitOnEof?.deadline ?? DEFAULT_EXIT_DEADLINE_MS;
  const written = (parsed.subjects ?? (parsed.subject ? [parsed.subject] : [])).map((s) => {
    const expectation = normaliseExpectation(s.expectation, exitDeadline);
    return {
      name: s.name ?? subjectName(s.command, s.args, resolveCwd(dir, s.cwd)).name,
      command: s.command,
      args: s.args,
      env: s.env,
      cwd: resolveCwd(dir, s.cwd),
      ...(s.files ? { files: s.files } : {}),
      ...(expectation ? { expectation } : {}),
      ...(s.activity ? { activity: normaliseActivity(s.activity) } : {}),
    };
  });
  const subjects = written.length > 0 ? written : [...given];
  const scenario: Scenario = {
    id: parsed.id,
    file,
    dir,
    subject: subjects[0],
    subjects,
    setup: parsed.setup.map(normaliseSetupStep),
    target: parsed.target ? { call: parsed.target.call, args: parsed.target.args } : null,
    points: parsed.points,
    modes: parsed.modes,
    protocol: parsed.protocol,
    ...(parsed['client-profiles'] ? { clientProfiles: parsed['client-profiles'] } : {}),
    cancel: normaliseCancel(parsed.cancel),
    child: {
      command: parsed.child?.command ?? null,
      pattern: parsed.child?.pattern ?? null,
      aliveFor: parsed.child?.['alive-for'] ?? DEFAULT_CHILD_ALIVE_MS,
    },
    timeouts: {
      handshake: parsed.timeouts?.handshake ?? DEFAULT_TIMEOUTS.handshake,
      point: parsed.timeouts?.point ?? DEFAULT_TIMEOUTS.point,
      inFlightDelay: parsed.timeouts?.['in-flight-delay'] ?? DEFAULT_TIMEOUTS.inFlightDelay,
      closeWait: parsed.timeouts?.['close-wait'] ?? DEFAULT_TIMEOUTS.closeWait,
      discover: parsed.timeouts?.discover ?? DEFAULT_TIMEOUTS.discover,
    },
    record: {
      stdoutLines: parsed.record?.['stdout-lines'] ?? DEFAULT_RECORD_LIMITS.stdoutLines,
      stderrBytes: parsed.record?.['stderr-bytes'] ?? DEFAULT_RECORD_LIMITS.stderrBytes,
      lineBytes: parsed.record?.['line-bytes'] ?? DEFAULT_RECORD_LIMITS.lineBytes,
      unterminatedBytes: parsed.record?.['unterminated-bytes'] ?? DEFAULT_RECORD_LIMITS.unterminatedBytes,
      activityEntries: parsed.record?.['activity-entries'] ?? DEFAULT_RECORD_LIMITS.activityEntries,
      activityBytes: parsed.record?.['activity-bytes'] ?? DEFAULT_RECORD_LIMITS.activityBytes,
    },
    remote: normaliseRemote(parsed.remote, dir),
    retry: false,
    network: parsed.network,
    expect: normaliseExpect(parsed.expect, parsed.remote !== undefined),
  };
  scenario.expect.activityRecorded = parsed.expect?.['activity-recorded'] ?? (parsed.remote !== undefined && asksForActivity(parsed));
  // The retry exists to judge idempotency: on by default exactly when that check applies.
  scenario.retry = parsed.retry ?? scenario.expect.idempotentEffects;
  if (parsed.description !== undefined) scenario.description = parsed.description;
  const expectation = normaliseExpectation(parsed.expectation, exitDeadline);
  if (expectation) scenario.expectation = expectation;
  return scenario;
}

/** activity-recorded is on by default where the scenario asks for the server's record (records-every-action, or a subject's `activity:`). */
function asksForActivity(parsed: ParsedScenario): boolean {
  const subjects = parsed.subjects ?? (parsed.subject ? [parsed.subject] : []);
  const lists = [parsed.expectation, ...subjects.map((s) => s.expectation)];
  return lists.some((list) => list?.includes('records-every-action')) || subjects.some((s) => s.activity !== undefined);
}

/** The cwd defaults to the file's folder and relative paths resolve against it; one starting with a template waits for renderScenario. */
function resolveCwd(dir: string, cwd: string | undefined): string {
  if (cwd === undefined) return dir;
  if (cwd.startsWith('{{')) return cwd;
  return path.resolve(dir, cwd);
}

/** subscribe and listen become their JSON-RPC method and params, so templates render in them like tool args. */
function normaliseSetupStep(step: ParsedScenario['setup'][number]): SetupStep {
  if (step.subscribe !== undefined) return { kind: 'subscribe', call: 'resources/subscribe', args: { uri: step.subscribe } };
  if (step.listen !== undefined) {
    const l = step.listen;
    const notifications: Record<string, unknown> = {};
    if (l['tools-list-changed'] !== undefined) notifications.toolsListChanged = l['tools-list-changed'];
    if (l['prompts-list-changed'] !== undefined) notifications.promptsListChanged = l['prompts-list-changed'];
    if (l['resources-list-changed'] !== undefined) notifications.resourcesListChanged = l['resources-list-changed'];
    if (l['resource-subscriptions'] !== undefined) notifications.resourceSubscriptions = l['resource-subscriptions'];
    return { kind: 'listen', call: 'subscriptions/listen', args: { notifications } };
  }
  return { call: step.call ?? '', args: step.args };
}

function normaliseCancel(c: ParsedScenario['cancel']): CancelSpec {
  return { then: c?.then ?? null, after: c?.after ?? 0 };
}

function normaliseRemote(r: ParsedScenario['remote'], dir: string): ScenarioRemote {
  return {
    handlers: r?.handlers ? path.resolve(dir, r.handlers) : null,
    writes: r?.writes ?? [],
    jobDuration: r?.['job-duration'] ?? null,
    trigger: r?.trigger ?? null,
    afterGate: r?.['after-gate'] ?? 'proceed',
    fault: r?.fault ?? null,
    revokeAfter: r?.['revoke-after'] ?? 0,
    rotateApiKey: r?.['rotate-api-key'] ?? false,
    intercept: r?.intercept ?? [],
    trust: r?.trust ?? true,
    declared: r !== undefined,
  };
}

function normaliseExpect(e: ParsedScenario['expect'], remoteDeclared: boolean): ScenarioExpect {
  const exit = e?.['exit-on-eof'] ?? true;
  const survivors = e?.['no-survivors'] ?? true;
  const extra: Record<string, unknown> = {};
  for (const key of EXTRA_EXPECT_KEYS) {
    const v = e?.[key];
    if (v !== undefined) extra[key] = v;
  }
  const on = (key: (typeof EXTRA_EXPECT_KEYS)[number]) => (extra[key] === undefined ? remoteDeclared : extra[key] !== false);
  const noSurvivorsGrace = survivors === false || survivors === true ? DEFAULT_SURVIVOR_GRACE_MS : (survivors.grace ?? DEFAULT_SURVIVOR_GRACE_MS);
  const jobs = extra['jobs-settled'];
  const jobsGrace =
    typeof jobs === 'object' && jobs !== null && typeof (jobs as { grace?: unknown }).grace === 'number' ? (jobs as { grace: number }).grace : noSurvivorsGrace;
  return {
    idempotentEffects: on('idempotent-effects'),
    deniedAfterRevocation: on('denied-after-revocation'),
    quietAfterLoss: on('quiet-after-loss'),
    jobsSettled: on('jobs-settled') ? { grace: jobsGrace } : null,
    exitOnEof: exit === false ? null : { deadline: (exit === true ? undefined : exit.deadline) ?? DEFAULT_EXIT_DEADLINE_MS },
    noSurvivors: survivors === false ? null : { grace: (survivors === true ? undefined : survivors.grace) ?? DEFAULT_SURVIVOR_GRACE_MS },
    stdoutClean: e?.['stdout-clean'] ?? true,
    silentAfterCancel: cancelOption(e?.['silent-after-cancel'], (o) => ({ outlastsCancel: o?.['outlasts-cancel'] ?? false })),
    stopsAfterCancel: cancelOption(e?.['stops-after-cancel'], (o) => ({ deadline: o?.deadline ?? DEFAULT_CANCEL_DEADLINE_MS })),
    aliveAfterCancel: cancelOption(e?.['alive-after-cancel'], (o) => ({ deadline: o?.deadline ?? DEFAULT_CANCEL_DEADLINE_MS })),
    extra,
  };
}

/** The cancel checks are on by default (they apply to cancel drills only); false turns one off. */
function cancelOption<O extends object, R>(value: boolean | O | undefined, make: (options: O | undefined) => R): R | null {
  if (value === false) return null;
  return make(value === true || value === undefined ? undefined : value);
}
