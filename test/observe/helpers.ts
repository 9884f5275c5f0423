/**
 * Shared test plumbing: spawn real processes, remember every identity we may have created,
 * and end them all by identity afterwards (plus the drill cgroups, which catch what escaped).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';
import { monoNow } from '../../harness/util/clock.js';
import {
  createDrillCgroup,
  drillIdFor,
  identify,
  listPids,
  newRunId,
  pollExit,
  readEnviron,
  readStat,
  signalIdentity,
  type DrillCgroup,
  type ProcIdentity,
} from '../../harness/observe/index.js';
import { registerRun, type RunRegistration } from '../../harness/run/index.js';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

const registrations = new Map<string, RunRegistration>();

/**
 * A drill id of a registered run. The registration matters: any harness on the machine (another
 * test file's run) sweeps drill processes of unregistered runs as stale, as it should.
 */
export function testDrillId(index = 1): string {
  const runId = newRunId();
  registrations.set(runId, registerRun(runId));
  return drillIdFor(runId, index);
}

/** Everything a test created, ended in afterEach. */
export class Cleanup {
  private ids: ProcIdentity[] = [];
  private drillIds = new Set<string>();
  private cgroups: DrillCgroup[] = [];

  track(id: ProcIdentity | null): void {
    if (id) this.ids.push(id);
  }

  /** Any process carrying one of these markers is ended too (catches what we never saw). */
  trackDrill(drillId: string): void {
    this.drillIds.add(drillId);
  }

  cgroup(drillId: string): DrillCgroup | null {
    const cg = createDrillCgroup(drillId);
    if (cg) this.cgroups.push(cg);
    this.trackDrill(drillId);
    return cg;
  }

  async run(): Promise<void> {
    for (const pid of listPids()) {
      const marker = readEnviron(pid)?.get('CRASH_DRILL_RUN');
      if (marker && this.drillIds.has(marker)) this.track(identify(pid));
    }
    for (const id of this.ids) {
      signalIdentity(id, 'SIGKILL');
    }
    for (const cg of this.cgroups) cg.kill();
    await Promise.all(this.ids.map((id) => pollExit(id, { timeoutMs: 5000 })));
    for (const cg of this.cgroups) {
      const deadline = monoNow() + 5000;
      while (cg.populated() && monoNow() < deadline) await new Promise((r) => setTimeout(r, 10));
      cg.remove();
    }
    this.ids = [];
    this.cgroups = [];
    this.drillIds.clear();
    for (const reg of registrations.values()) reg.unregister();
    registrations.clear();
  }
}

export type Proc = { child: ChildProcess; id: ProcIdentity; lines: AsyncIterator<string>; nextLine(timeoutMs?: number): Promise<string> };

/** Spawn and identify at once; stdout is read line by line. */
export function start(cleanup: Cleanup, command: string, args: string[], opts: SpawnOptions = {}): Proc {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], ...opts });
  if (child.pid === undefined) throw new Error(`spawn ${command} failed`);
  const id = identify(child.pid);
  if (!id) throw new Error(`${command} exited before it could be identified`);
  cleanup.track(id);
  const lines: AsyncIterator<string> = child.stdout
    ? createInterface({ input: child.stdout })[Symbol.asyncIterator]()
    : { next: async () => ({ done: true, value: undefined }) };
  const nextLine = async (timeoutMs = 20_000): Promise<string> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no line from ${command} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const r = await Promise.race([lines.next(), timeout]);
      if (r.done) throw new Error(`${command} closed stdout`);
      return r.value;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, id, lines, nextLine };
}

export function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  // A marker inherited from whoever runs the tests must not leak into unrelated fixtures.
  if (!('CRASH_DRILL_RUN' in extra)) delete env.CRASH_DRILL_RUN;
  return env;
}

/** Wait for a condition by polling, with a generous deadline (a condition, not a sleep). */
export async function until<T>(fn: () => T | null | undefined | false, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = monoNow() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (monoNow() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export function stateOf(pid: number): string | null {
  return readStat(pid)?.state ?? null;
}
