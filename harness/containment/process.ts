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

export async function containProcess<S extends ProcessSnapshot>(opts: ProcessContainOptions<S>): Promise<ProcessContainment<S>> {
  const { table: backend, pid } = opts;
  const t0 = monoNow();
  const wall0 = Date.now();
  const steps: ContainStep[] = [];
  // The root process, once its start time is known (refusals before that name the pid alone).
  let root: ProcessTarget | { pid: number; startTime: null } = { pid, startTime: null };
  const step = (what: UntargetedStep, target: ProcessTarget | { pid: number; startTime: null } = root) => {
    const t = monoNow();
    steps.push({ t, ms: Math.round(t - t0), at: new Date().toISOString(), ...what, target } as ContainStep);
  };
  const rootStep = (what: UntargetedStep) => step(what, root as ProcessTarget);
  const result: ProcessContainment<S> = {
    pid,
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
    wall0,
  };
  const refuse = (reason: string): ProcessContainment<S> => {
    step({ kind: 'outcome', result: 'refused', reason });
    return { ...result, outcome: 'refused', reason };
  };

  if (pid === 1) return refuse('pid 1 is init: never contained');
  const processes = backend.processes();
  const byPid = new Map(processes.map((p) => [p.pid, p]));
  if (selfAndAncestors(byPid).has(pid)) return refuse(`process ${pid} is this command or one of its ancestors`);
  const target = byPid.get(pid);
  if (!target || target.state === 'Z') return refuse(`no live process ${pid}`);
  result.startTime = target.startTime;
  root = { pid, startTime: target.startTime };
  if (opts.expectStartTime !== undefined && target.startTime !== opts.expectStartTime) {
    return refuse(`process ${pid} started at ${target.startTime}, not ${opts.expectStartTime}: the pid now names another process`);
  }
  const me = process.getuid?.() ?? null;
  if (me !== null && me !== 0 && target.uid !== me && !opts.force) return refuse(`process ${pid} belongs to user ${target.user}, not to you (use --force)`);
  if (me === 0 && target.uid !== 0 && !opts.force) return refuse(`process ${pid} belongs to user ${target.user}, not to root, who runs this (use --force)`);

  const snapshot = opts.snapshot(pid);
  result.snapshot = snapshot;
  root = { pid, startTime: snapshot.process.startTime };
  rootStep({ kind: 'snapshot', result: 'taken' });
  const finish = (outcome: ContainOutcome, reason: string, forced: boolean, survivors: number[]): ProcessContainment<S> => {
    step({ kind: 'outcome', result: outcome, reason });
    return { ...result, outcome, reason, forced, survivors };
  };
  await opts.afterSnapshot?.(snapshot);

  // 2. Revoke and prove it.
  const env = { CRASH_DRILL_PID: String(pid), CRASH_DRILL_START_TIME: String(snapshot.process.startTime) };
  const timeoutMs = opts.probeTimeoutMs ?? 10_000;
  if (opts.revokeCmd || opts.revokeUrl) {
    result.revocations = await revoke({ cmd: opts.revokeCmd, url: opts.revokeUrl, env, timeoutMs });
    result.revokedAt = monoNow();
    for (const r of result.revocations) rootStep({ kind: 'revoke', what: r.what, result: r.result, detail: r.detail });
  }
  if (opts.probeCmd || opts.probeUrl) {
    result.probes = await probe({ cmd: opts.probeCmd, url: opts.probeUrl, env, timeoutMs });
    for (const p of result.probes) rootStep({ kind: 'probe', what: p.what, result: p.result, detail: p.detail });
    if (result.probes.some((p) => p.result === 'allowed')) {
      if (!opts.force)
        return finish('stopped', 'the probe was still allowed after revocation: containment stopped, nothing was signalled (--force goes on)', false, []);
      rootStep({ kind: 'probe-overridden', result: 'forced' });
    }
  }

  // 3. SIGTERM, after re-identifying: the pid must still name the process of the snapshot.
  const now = backend.process(pid);
  if (!now || now.startTime !== snapshot.process.startTime) {
    return finish(
      'refused',
      `process ${pid} no longer has the start time of the snapshot (${snapshot.process.startTime}${now ? `, now ${now.startTime}` : ', now gone'}): nothing was signalled`,
      false,
      [],
    );
  }
  const snapTable = backend.processes();
  const members = runMembers(now, snapTable).filter((m) => {
    const other = m.uid !== now.uid && !opts.force;
    if (other) result.members.push({ ...m, endedBy: 'skipped' });
    return !other;
  });
  const ended = new Map<number, MemberRecord['endedBy']>();
  for (const m of members) {
    const state = snapTable.find((p) => p.pid === m.pid)?.state;
    const out = signalChecked(backend, m, 'SIGTERM');
    step({ kind: 'signal', signal: 'SIGTERM', result: out, proof: m.proof }, { pid: m.pid, startTime: m.startTime });
    if (out !== 'sent') ended.set(m.pid, 'already-gone');
    // A stopped process keeps SIGTERM pending until it is continued (signal(7)).
    else if (state === 'T')
      step(
        { kind: 'signal', signal: 'SIGCONT', result: signalChecked(backend, m, 'SIGCONT'), reason: 'stopped', proof: m.proof },
        { pid: m.pid, startTime: m.startTime },
      );
  }

  await Promise.all(
    members
      .filter((m) => !ended.has(m.pid))
      .map(async (m) => {
        if (await waitGone(backend, m, opts.waitMs)) ended.set(m.pid, 'SIGTERM');
      }),
  );
  rootStep({ kind: 'wait', waitMs: opts.waitMs, result: 'waited', ended: ended.size, of: members.length });

  // 5. Re-identify and re-check the group and children: a dying handler may have forked.
  const rootNow = backend.process(pid);
  const again = runMembers(rootNow && rootNow.startTime === snapshot.process.startTime ? rootNow : snapshot.process, backend.processes(), members);
  for (const m of again) if (!members.some((x) => x.pid === m.pid) && (m.uid === now.uid || opts.force)) members.push(m);
  const left = members.filter((m) => !ended.has(m.pid));
  rootStep({ kind: 're-identify', result: 'done', left: left.map((m) => m.pid) });

  // 6. SIGKILL only what is still there and proven to be of the run.
  let forced = false;
  for (const m of left) {
    const out = signalChecked(backend, m, 'SIGKILL');
    step({ kind: 'signal', signal: 'SIGKILL', result: out, proof: m.proof }, { pid: m.pid, startTime: m.startTime });
    if (out === 'sent') forced = true;
    else ended.set(m.pid, 'already-gone');
  }
  const killWaitMs = opts.killWaitMs ?? 2000;
  await Promise.all(
    left.filter((m) => !ended.has(m.pid)).map(async (m) => ended.set(m.pid, (await waitGone(backend, m, killWaitMs)) ? 'SIGKILL' : 'survived')),
  );
  for (const m of members) result.members.push({ ...m, endedBy: ended.get(m.pid) ?? 'survived' });
  const survivors = result.members.filter((m) => m.endedBy === 'survived').map((m) => m.pid);
  if (survivors.length > 0)
    return finish('survived', `forced containment, cleanup may be incomplete: ${survivors.join(', ')} survived SIGKILL`, true, survivors);
  if (forced) return finish('forced', 'forced containment, cleanup may be incomplete: SIGTERM did not end it, SIGKILL did', true, []);
  return finish('contained', 'ended by SIGTERM', false, []);
}
