/**
 * The suite's one process cleaner: every process a test starts or learns of is remembered by
 * identity (pid and start time, never a bare pid: a pid can be reused once its process is
 * reaped) and SIGKILLed after the test, with the processes carrying a tracked drill's marker
 * and the drill cgroups, which catch what escaped.
 */
import {
  createDrillCgroup,
  drillIdFor,
  identify,
  isAlive,
  listPids,
  newRunId,
  readEnviron,
  type DrillCgroup,
  type ProcIdentity,
} from '../../harness/observe/index.js';
import { registerRun, type RunRegistration } from '../../harness/registry/index.js';
import { until } from './until.js';
import { signalIdentity } from '../../harness/containment/signal.js';

const registrations = new Map<string, RunRegistration>();

/**
 * A drill id of a registered run, unregistered by the next Cleanup.run(). The registration
 * matters: any harness on the machine (another test file's run) sweeps drill processes of
 * unregistered runs as stale, as it should.
 */
export function testDrillId(index = 1): string {
  const runId = newRunId();
  registerTestRun(runId);
  return drillIdFor(runId, index);
}

/** Registers a run, unregistered by the next Cleanup.run(): a registration left is a file left in the user's own registry. */
function registerTestRun(runId: string): void {
  registrations.set(runId, registerRun(runId));
}

/** Everything a test created, ended by run() (in afterEach). */
export class Cleanup {
  private ids: ProcIdentity[] = [];
  private drillIds = new Set<string>();
  private cgroups: DrillCgroup[] = [];

  /**
   * Registers a run whose marked processes the test starts itself, unregistered by run(), as
   * testDrillId()'s are: any harness on the machine sweeps the marked processes of an
   * unregistered run as stale.
   */
  registerRun(runId: string): void {
    registerTestRun(runId);
  }

  /**
   * Remembers a process. A pid is identified now (null when it is already gone); an identity is
   * kept as it is. Returns the identity.
   */
  track(process: ProcIdentity | number | null): ProcIdentity | null {
    const id = typeof process === 'number' ? identify(process) : process;
    if (id) this.ids.push(id);
    return id;
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
    try {
      if (this.drillIds.size > 0) {
        for (const pid of listPids()) {
          const marker = readEnviron(pid)?.get('CRASH_DRILL_RUN');
          if (marker && this.drillIds.has(marker)) this.track(pid);
        }
      }
      const ids = this.ids.splice(0);
      for (const id of ids) signalIdentity(id, 'SIGKILL');
      for (const cg of this.cgroups) cg.kill();
      await until('the tracked processes to exit', () => ids.every((id) => !isAlive(id)));
      for (const cg of this.cgroups) {
        await until(`drill cgroup ${cg.path} to empty`, () => !cg.populated(), 5000);
        cg.remove();
      }
    } finally {
      this.ids = [];
      this.cgroups = [];
      this.drillIds.clear();
      for (const reg of registrations.values()) reg.unregister();
      registrations.clear();
    }
  }
}
