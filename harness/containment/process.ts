/**
 * `crash-drill contain <pid>`, in the order that keeps the evidence: snapshot, revoke and prove it,
 * SIGTERM, wait, re-identify, SIGKILL only what is proven of the run (members.ts). Never by name.
 */
import { monoNow } from '../util/clock.js';
import { runMembers, type Member } from './members.js';
import { probe, revoke, type ProbeOutcome } from './probe.js';
import { signalChecked, waitGone } from './process-signals.js';
import { selfAndAncestors, type ProcessTable, type TableProcess } from './process-table.js';
import type { ContainmentStep, ContainOutcome, ProcessTarget, UntargetedStep } from './step.js';

/** The snapshot containment needs of the process: its row (the caller's snapshot holds more). */
export type ProcessSnapshot = { process: TableProcess };

/** How a process on a live machine is contained (the caller: harness/live-machine/contain.ts, for `crash-drill contain`). */
export interface ProcessContainOptions<S extends ProcessSnapshot> {
  /** The live machine's process table (harness/live-machine/backend.ts gives one per backend). */
  table: ProcessTable;
  pid: number;
  /** Contain only if its start time is still this (from an earlier inspect or orphans). */
  expectStartTime?: number;
  force?: boolean;
  waitMs: number;
  killWaitMs?: number;
  revokeCmd?: string;
  revokeUrl?: string;
  probeCmd?: string;
  probeUrl?: string;
  probeTimeoutMs?: number;
  /** The snapshot, taken before anything is revoked or signalled. */
  snapshot(pid: number): S;
  /** Runs between the snapshot and the first signal (tests simulate a reused pid here). */
  afterSnapshot?: (snapshot: S) => void | Promise<void>;
}

/** A step of `contain`, with `ms` since the command began and `at` the wall-clock time (its output and --json). */
export type ContainStep = ContainmentStep & { ms: number; at: string };

export interface MemberRecord extends Member {
  endedBy: 'SIGTERM' | 'SIGKILL' | 'already-gone' | 'survived' | 'skipped';
}

/** What containment of a process came to: its outcome, every step, and what the caller's record needs. */
export interface ProcessContainment<S extends ProcessSnapshot> {
  pid: number;
  startTime: number | null;
  outcome: ContainOutcome;
  reason: string;
  steps: ContainStep[];
  revocations: ProbeOutcome[];
  probes: ProbeOutcome[];
  members: MemberRecord[];
  /** Null when it was refused before the snapshot. */
  snapshot: S | null;
  /** SIGKILL was needed. */
  forced: boolean;
  /** Members still there after SIGKILL. */
  survivors: number[];
  /** When the revocation ran (monotonic ms), null without one. */
  revokedAt: number | null;
  /** When containment began: monotonic and wall-clock ms. */
  t0: number;
  wall0: number;
}

/** What every stage of one containment shares: its options, its steps so far and the result it builds. */
interface Containing<S extends ProcessSnapshot> {
  opts: ProcessContainOptions<S>;
  table: ProcessTable;
  pid: number;
  result: ProcessContainment<S>;
  /** The root process, once its start time is known (refusals before that name the pid alone). */
  root: ProcessTarget | { pid: number; startTime: null };
  step(what: UntargetedStep, target?: ProcessTarget | { pid: number; startTime: null }): void;
  /** Ends containment: its last step, and the result. */
  finish(outcome: ContainOutcome, reason: string, forced?: boolean, survivors?: number[]): ProcessContainment<S>;
}

/** The members SIGTERM was sent to, and how each that is gone ended. */
interface Signalled {
  /** The root as re-identified before SIGTERM. */
  now: TableProcess;
  members: Member[];
  ended: Map<number, MemberRecord['endedBy']>;
}

/**
 * Stages, each passing a value on: refusals, the snapshot, revocation and its proof, SIGTERM and
 * the wait, re-identification, SIGKILL of what is left. A stage that ends containment returns its result.
 */
export async function containProcess<S extends ProcessSnapshot>(opts: ProcessContainOptions<S>): Promise<ProcessContainment<S>> {
  const c = begin(opts);
  const refused = refusal(c);
  if (refused) return refused;
  const snapshot = await takeSnapshot(c);
  const stopped = await revokeAndProve(c, snapshot);
  if (stopped) return stopped;
  const signalled = await terminate(c, snapshot);
  if (!('ended' in signalled)) return signalled;
  return kill(c, signalled, reidentify(c, snapshot, signalled));
}

function begin<S extends ProcessSnapshot>(opts: ProcessContainOptions<S>): Containing<S> {
  const t0 = monoNow();
  const steps: ContainStep[] = [];
  const c: Containing<S> = {
    opts,
    table: opts.table,
    pid: opts.pid,
    root: { pid: opts.pid, startTime: null },
    result: {
      pid: opts.pid,
      startTime: null,
      outcome: 'refused',
      reason: '',
      steps,
      revocations: [],
      probes: [],
      members: [],
      snapshot: null,
      forced: false,
      survivors: [],
      revokedAt: null,
      t0,
      wall0: Date.now(),
    },
    step: (what, target = c.root) => {
      const t = monoNow();
      steps.push({ t, ms: Math.round(t - t0), at: new Date().toISOString(), ...what, target } as ContainStep);
    },
    finish: (outcome, reason, forced = false, survivors = []) => {
      c.step({ kind: 'outcome', result: outcome, reason });
      return { ...c.result, outcome, reason, forced, survivors };
    },
  };
  return c;
}

/** 1. Refused: pid 1, this command or its ancestors, a process gone or reused, another user's without force. */
function refusal<S extends ProcessSnapshot>(c: Containing<S>): ProcessContainment<S> | null {
  const { pid, opts } = c;
  if (pid === 1) return c.finish('refused', 'pid 1 is init: never contained');
  const byPid = new Map(c.table.processes().map((p) => [p.pid, p]));
  if (selfAndAncestors(byPid).has(pid)) return c.finish('refused', `process ${pid} is this command or one of its ancestors`);
  const target = byPid.get(pid);
  if (!target || target.state === 'Z') return c.finish('refused', `no live process ${pid}`);
  c.result.startTime = target.startTime;
  c.root = { pid, startTime: target.startTime };
  if (opts.expectStartTime !== undefined && target.startTime !== opts.expectStartTime) {
    return c.finish('refused', `process ${pid} started at ${target.startTime}, not ${opts.expectStartTime}: the pid now names another process`);
  }
  const me = process.getuid?.() ?? null;
  if (me !== null && me !== 0 && target.uid !== me && !opts.force)
    return c.finish('refused', `process ${pid} belongs to user ${target.user}, not to you (use --force)`);
  if (me === 0 && target.uid !== 0 && !opts.force)
    return c.finish('refused', `process ${pid} belongs to user ${target.user}, not to root, who runs this (use --force)`);
  return null;
}

/** The snapshot, before anything is revoked or signalled. */
async function takeSnapshot<S extends ProcessSnapshot>(c: Containing<S>): Promise<S> {
  const snapshot = c.opts.snapshot(c.pid);
  c.result.snapshot = snapshot;
  c.root = { pid: c.pid, startTime: snapshot.process.startTime };
  c.step({ kind: 'snapshot', result: 'taken' });
  await c.opts.afterSnapshot?.(snapshot);
  return snapshot;
}

/** 2. Revoke and prove it: a probe still allowed stops containment before any signal, unless forced. */
async function revokeAndProve<S extends ProcessSnapshot>(c: Containing<S>, snapshot: S): Promise<ProcessContainment<S> | null> {
  const { opts, result } = c;
  const env = { CRASH_DRILL_PID: String(c.pid), CRASH_DRILL_START_TIME: String(snapshot.process.startTime) };
  const timeoutMs = opts.probeTimeoutMs ?? 10_000;
  if (opts.revokeCmd || opts.revokeUrl) {
    result.revocations = await revoke({ cmd: opts.revokeCmd, url: opts.revokeUrl, env, timeoutMs });
    result.revokedAt = monoNow();
    for (const r of result.revocations) c.step({ kind: 'revoke', what: r.what, result: r.result, detail: r.detail });
  }
  if (opts.probeCmd || opts.probeUrl) {
    result.probes = await probe({ cmd: opts.probeCmd, url: opts.probeUrl, env, timeoutMs });
    for (const p of result.probes) c.step({ kind: 'probe', what: p.what, result: p.result, detail: p.detail });
    if (result.probes.some((p) => p.result === 'allowed')) {
      if (!opts.force) return c.finish('stopped', 'the probe was still allowed after revocation: containment stopped, nothing was signalled (--force goes on)');
      c.step({ kind: 'probe-overridden', result: 'forced' });
    }
  }
  return null;
}

/** 3 and 4. SIGTERM to the run's members, after re-identifying the root (the pid must still name the snapshot's process), then the wait. */
async function terminate<S extends ProcessSnapshot>(c: Containing<S>, snapshot: S): Promise<Signalled | ProcessContainment<S>> {
  const { table, opts, pid } = c;
  const now = table.process(pid);
  if (!now || now.startTime !== snapshot.process.startTime) {
    return c.finish(
      'refused',
      `process ${pid} no longer has the start time of the snapshot (${snapshot.process.startTime}${now ? `, now ${now.startTime}` : ', now gone'}): nothing was signalled`,
    );
  }
  const snapTable = table.processes();
  const members = runMembers(now, snapTable).filter((m) => {
    const other = m.uid !== now.uid && !opts.force;
    if (other) c.result.members.push({ ...m, endedBy: 'skipped' });
    return !other;
  });
  const ended = new Map<number, MemberRecord['endedBy']>();
  for (const m of members) {
    const state = snapTable.find((p) => p.pid === m.pid)?.state;
    const out = signalChecked(table, m, 'SIGTERM');
    c.step({ kind: 'signal', signal: 'SIGTERM', result: out, proof: m.proof }, { pid: m.pid, startTime: m.startTime });
    if (out !== 'sent') ended.set(m.pid, 'already-gone');
    // A stopped process keeps SIGTERM pending until it is continued (signal(7)).
    else if (state === 'T')
      c.step(
        { kind: 'signal', signal: 'SIGCONT', result: signalChecked(table, m, 'SIGCONT'), reason: 'stopped', proof: m.proof },
        { pid: m.pid, startTime: m.startTime },
      );
  }
  await Promise.all(
    members
      .filter((m) => !ended.has(m.pid))
      .map(async (m) => {
        if (await waitGone(table, m, opts.waitMs)) ended.set(m.pid, 'SIGTERM');
      }),
  );
  c.step({ kind: 'wait', waitMs: opts.waitMs, result: 'waited', ended: ended.size, of: members.length });
  return { now, members, ended };
}

/** 5. Re-identify and re-check the group and children: a dying handler may have forked. Returns the members left. */
function reidentify<S extends ProcessSnapshot>(c: Containing<S>, snapshot: S, { now, members, ended }: Signalled): Member[] {
  const rootNow = c.table.process(c.pid);
  const again = runMembers(rootNow && rootNow.startTime === snapshot.process.startTime ? rootNow : snapshot.process, c.table.processes(), members);
  for (const m of again) if (!members.some((x) => x.pid === m.pid) && (m.uid === now.uid || c.opts.force)) members.push(m);
  const left = members.filter((m) => !ended.has(m.pid));
  c.step({ kind: 're-identify', result: 'done', left: left.map((m) => m.pid) });
  return left;
}

/** 6. SIGKILL only what is still there and proven to be of the run; the outcome. */
async function kill<S extends ProcessSnapshot>(c: Containing<S>, { members, ended }: Signalled, left: Member[]): Promise<ProcessContainment<S>> {
  let forced = false;
  for (const m of left) {
    const out = signalChecked(c.table, m, 'SIGKILL');
    c.step({ kind: 'signal', signal: 'SIGKILL', result: out, proof: m.proof }, { pid: m.pid, startTime: m.startTime });
    if (out === 'sent') forced = true;
    else ended.set(m.pid, 'already-gone');
  }
  const killWaitMs = c.opts.killWaitMs ?? 2000;
  await Promise.all(
    left.filter((m) => !ended.has(m.pid)).map(async (m) => ended.set(m.pid, (await waitGone(c.table, m, killWaitMs)) ? 'SIGKILL' : 'survived')),
  );
  for (const m of members) c.result.members.push({ ...m, endedBy: ended.get(m.pid) ?? 'survived' });
  const survivors = c.result.members.filter((m) => m.endedBy === 'survived').map((m) => m.pid);
  if (survivors.length > 0)
    return c.finish('survived', `forced containment, cleanup may be incomplete: ${survivors.join(', ')} survived SIGKILL`, true, survivors);
  if (forced) return c.finish('forced', 'forced containment, cleanup may be incomplete: SIGTERM did not end it, SIGKILL did', true);
  return c.finish('contained', 'ended by SIGTERM');
}
