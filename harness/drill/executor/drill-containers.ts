/**
 * The containers of one drill, from the label on the subject's command to containment: a drill
 * extension (harness/drill/executor/extension.ts) whose five hooks the executor calls when it
 * renders the subject, when the tracker starts, after the handshake, at the snapshot and at
 * containment. A drill that never touches a container engine costs nothing: no engine is asked
 * anything.
 *
 * The container's processes are not the drill's descendants (they are children of
 * containerd-shim: no parent link, marker, process group or drill cgroup reaches them), so
 * they are found through the engine: the label, the engine CLI processes among the drill's
 * members, and the engine's events in the drill window (attribute.ts).
 */
import type { Scenario } from '../../config/index.js';
import type { DrillExtension, DrillExtensionFactory, SnapshotLabel } from './extension.js';
import type { EvidenceRecorder } from './recorder.js';
import type { DrillTracker, ProcIdentity, TrackedProcess } from '../../observe/index.js';
import { readCmdline, runIdOf, startTimeToMono } from '../../observe/index.js';
import { monoNow } from '../../util/clock.js';
import { attribute, type CliSighting } from '../../containers/index.js';
import { containContainers, SIGKILL_EXIT } from '../../containment/containers.js';
import { parseRunCommand, type Engine } from '../../containers/index.js';
import { EngineClient, type EngineEvent, type Inspected } from '../../containers/index.js';
import { ContainerProcessWatch } from '../../containers/index.js';
import { labelSubject, RUN_LABEL } from '../../containers/index.js';
import { markEngineUsed } from '../../containers/index.js';
import type { AmbiguousContainer, ContainerRow } from '../../containers/index.js';

/** Events are asked for from a little before the drill began (the engine's clock is the same host clock). */
const WINDOW_SLACK_MS = 1000;

/** Servers in containers, for every drill of a run (ExecuteOptions.extensions). */
export const containersExtension: DrillExtensionFactory = ({ drillId, rec }) => new DrillContainers(drillId, rec);

export class DrillContainers implements DrillExtension {
  private engine: EngineClient | null = null;
  private engineChecked = false;
  private reachable = false;
  private readonly startWall = Date.now();
  private readonly clis = new Map<string, CliSighting>();
  private subjectContainer: string | null = null;
  private exitRecorded = false;
  private readonly inside = new ContainerProcessWatch((p) => this.sighted(p, monoNow()));
  private subjectEnv: Record<string, string> = {};

  constructor(
    private readonly drillId: string,
    private readonly rec: EvidenceRecorder,
  ) {}

  /** True once the drill has shown any use of a container engine. */
  get active(): boolean {
    return this.engine !== null;
  }

  /** Hook 1: the rendered scenario with the drill's label on its container (recorded as evidence). */
  render(scenario: Scenario): Scenario {
    const { subject } = scenario;
    const { kind, change } = labelSubject([subject.command, ...subject.args], this.drillId);
    if (kind === 'no-engine') return scenario;
    this.rec.harness({ type: 'container-label', change });
    this.subjectEnv = subject.env;
    if (!change.changed) return scenario;
    this.useEngine(change.engine, change.endpoint);
    const [command, ...args] = change.after;
    return { ...scenario, subject: { ...subject, command, args } };
  }

  /** Hook 2: engine CLI processes among the drill's members (a tool's own `docker run -d`). */
  tracking(tracker: DrillTracker): void {
    tracker.on('new', (p: TrackedProcess) => this.sighted(p, p.firstSeen));
    tracker.on('exit', (p: TrackedProcess) => {
      const seen = this.clis.get(`${p.pid}:${p.startTime}`);
      if (seen) seen.lastSeenWall = this.toWall(p.exitedAt ?? monoNow());
    });
  }

  /** Hook 3: the subject's own container, once the server has answered (it exists by then). */
  async afterHandshake(server: ProcIdentity | null): Promise<void> {
    if (!this.engine || !(await this.checkEngine())) return;
    const ids = await this.engine.labelled(`${RUN_LABEL}=${this.drillId}`).catch(() => []);
    const [found] = await this.engine.inspect(ids.slice(0, 1));
    if (!found) return;
    this.subjectContainer = found.id;
    const cmdline = server ? (readCmdline(server.pid) ?? []) : [];
    const cli = server && parseRunCommand(cmdline) ? { pid: server.pid, startTime: server.startTime, cmdline } : null;
    // The tracker may have first seen the server between its fork and its exec (under the
    // stand-in's name), when its command line was not yet `docker run`: sight it now, from its start.
    if (cli && !this.clis.has(`${cli.pid}:${cli.startTime}`)) this.sighted(cli, startTimeToMono(cli.startTime));
    this.rec.harness({ type: 'container-server', cli: cli ?? { pid: 0, startTime: 0, cmdline: [] }, container: this.row(found, 'label', cli) });
    if (found.pid !== null) this.inside.watch(found.pid);
  }

  /** Hook 4: the drill's containers at the end of the grace period (or the hang window). */
  async snapshot(label: SnapshotLabel): Promise<void> {
    const { engine } = this;
    if (!engine) return;
    const reachable = await this.checkEngine();
    if (!reachable) {
      this.rec.harness({ type: 'container-snapshot', label, reachable, running: [], seen: [], ambiguous: [], blindSpots: [this.unreachableSpot()] });
      return;
    }
    const { rows, ambiguous, events } = await this.current(engine);
    this.recordSubjectExit(events);
    const blindSpots = ambiguous.length > 0 ? ['a container created during the drill could not be tied to it or ruled out (see ambiguous)'] : [];
    this.rec.harness({ type: 'container-snapshot', label, reachable, running: rows.filter((r) => r.state === 'running'), seen: rows, ambiguous, blindSpots });
  }

  /** Hook 5: stop what is the drill's (docker stop --time <wait>, then docker kill), before the processes are signalled. */
  async contain(termWaitMs: number): Promise<void> {
    this.inside.stop();
    const { engine } = this;
    if (!engine || !this.reachable) return;
    const { rows, events } = await this.current(engine);
    this.recordSubjectExit(events);
    const records = await containContainers(engine, rows, { termWaitMs });
    // A --rm container can be gone before it is inspected again: its exit code is in its die event.
    if (records.some((r) => r.exitCode === null && r.endedBy !== 'already-gone')) {
      const later = await this.windowEvents(engine);
      for (const r of records) {
        const die = r.exitCode === null ? later.filter((e) => e.id === r.id && e.action === 'die').pop() : undefined;
        if (!die) continue;
        r.exitCode = die.exitCode;
        if (die.exitCode === SIGKILL_EXIT) r.forced = true;
      }
    }
    if (records.length > 0) this.rec.harness({ type: 'container-containment', records });
    // The subject's container may have ended only now: its exit (and code) comes from the engine.
    if (!this.exitRecorded && this.subjectContainer) this.recordSubjectExit(await this.windowEvents(engine));
  }

  private useEngine(engine: Engine, endpoint: string[]): void {
    if (this.engine === null) markEngineUsed(runIdOf(this.drillId)); // a later run then sweeps what this one left, were it to die (stale.ts)
    this.engine ??= EngineClient.forSubject(engine, endpoint, this.subjectEnv);
  }

  private sighted(p: { pid: number; startTime: number; cmdline: string[] }, firstSeenMono: number): void {
    const run = parseRunCommand(p.cmdline);
    if (!run) return;
    this.clis.set(`${p.pid}:${p.startTime}`, {
      pid: p.pid,
      startTime: p.startTime,
      cmdline: [...p.cmdline],
      run,
      firstSeenWall: this.toWall(firstSeenMono),
      lastSeenWall: null,
    });
    this.useEngine(run.engine, run.endpoint);
  }

  private async checkEngine(): Promise<boolean> {
    if (this.engineChecked || !this.engine) return this.reachable;
    this.engineChecked = true;
    const { version, error } = await this.engine.version();
    this.reachable = error === null;
    this.rec.harness({ type: 'container-engine', engine: this.engine.engine, endpoint: this.engine.endpoint, reachable: this.reachable, version, error });
    return this.reachable;
  }

  private unreachableSpot(): string {
    return `no container engine was reachable (${this.engine?.engine ?? 'docker'}): containers the drill started cannot be seen, judged or contained`;
  }

  private windowEvents(engine: EngineClient): Promise<EngineEvent[]> {
    return engine.events(this.startWall - WINDOW_SLACK_MS, Date.now()).catch(() => []);
  }

  /** The drill's containers as the engine knows them now, with the ones that cannot be attributed. */
  private async current(engine: EngineClient): Promise<{ rows: ContainerRow[]; ambiguous: AmbiguousContainer[]; events: EngineEvent[] }> {
    const events = await this.windowEvents(engine);
    const { ours, ambiguous } = attribute(this.drillId, events, [...this.clis.values()], true);
    // A labelled container created before the window (never the case for a fresh drill id) is still ours.
    const labelled = await engine.labelled(`${RUN_LABEL}=${this.drillId}`).catch(() => []);
    for (const id of labelled) if (!ours.some((o) => o.id === id)) ours.push({ id, by: 'label', cli: null });
    const inspected = await engine.inspect(ours.map((o) => o.id));
    const rows = ours.map((o) => {
      const found = inspected.find((i) => i.id === o.id);
      return found ? this.row(found, o.by, o.cli) : this.removedRow(o, events);
    });
    for (const row of rows) if (row.state === 'running' && row.pid !== null) this.inside.watch(row.pid);
    return { rows, ambiguous, events };
  }

  private row(found: Inspected, by: ContainerRow['attributedBy'], cli: ContainerRow['cli']): ContainerRow {
    return {
      id: found.id,
      name: found.name,
      image: found.image,
      command: found.command,
      state: found.state,
      created: found.created,
      labels: found.labels,
      pid: found.pid,
      attributedBy: by,
      cli,
    };
  }

  /** A container of the drill that no longer exists (--rm): what its events said. */
  private removedRow(o: { id: string; by: ContainerRow['attributedBy']; cli: ContainerRow['cli'] }, events: EngineEvent[]): ContainerRow {
    const create = events.find((e) => e.id === o.id && e.action === 'create');
    const labels = Object.fromEntries(Object.entries(create?.labels ?? {}).filter(([k]) => k.includes('.') || k === RUN_LABEL));
    return {
      id: o.id,
      name: create?.name ?? '',
      image: create?.image ?? '',
      command: [],
      state: 'removed',
      created: create ? new Date(create.wallMs).toISOString() : '',
      labels,
      pid: null,
      attributedBy: o.by,
      cli: o.cli,
    };
  }

  private recordSubjectExit(events: EngineEvent[]): void {
    if (this.exitRecorded || !this.subjectContainer) return;
    const die = events.find((e) => e.id === this.subjectContainer && e.action === 'die');
    if (!die) return;
    this.exitRecorded = true;
    this.rec.harness({ type: 'container-exit', id: die.id, code: die.exitCode, wall: new Date(die.wallMs).toISOString() }, this.toMono(die.wallMs));
  }

  private toWall(mono: number): number {
    return Date.now() - (monoNow() - mono);
  }

  private toMono(wallMs: number): number {
    return monoNow() - (Date.now() - wallMs);
  }
}
