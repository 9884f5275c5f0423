/**
 * A drill extension: an object with optional hooks the executor calls at fixed moments of every
 * drill (like a vitest reporter's `onTestRunStart? / onTestCaseResult?`). The executor knows
 * only this interface; what implements it lives elsewhere (servers in containers:
 * harness/drill/executor/drill-containers.ts) and is handed in through ExecuteOptions.extensions.
 *
 * A hook records its own evidence at the moment it is called, so where it is called is part of
 * the evidence's order: each hook's comment says where that is.
 */
import type { Scenario } from '../../config/index.js';
import type { DrillTracker, ProcIdentity } from '../../observe/index.js';
import type { EvidenceRecorder } from './recorder.js';

export type SnapshotLabel = 'grace-end' | 'hang-window';

export interface DrillExtension {
  /** Every rendering of the scenario (the drill's, then the recovery retry's): may return it changed. */
  render?(scenario: Scenario): Scenario;
  /** The drill's tracker, after the executor's own listeners and before its first sample. */
  tracking?(tracker: DrillTracker): void;
  /** After the handshake and setup, with the server (past any launcher) and its start facts recorded. */
  afterHandshake?(server: ProcIdentity | null): Promise<void>;
  /** Right after the process snapshot at the end of the grace period (or of a hang's window). */
  snapshot?(label: SnapshotLabel): Promise<void>;
  /** First in containment, after the revocation, before the drill's processes are signalled. */
  contain?(termWaitMs: number): Promise<void>;
}

/** Makes one drill's extension, when the drill starts (just after its drill-start event). */
export type DrillExtensionFactory = (drill: { drillId: string; rec: EvidenceRecorder }) => DrillExtension;

/** One drill's extensions, each hook called on every extension in the order they were given. */
export class Extensions {
  constructor(private readonly list: readonly DrillExtension[]) {}

  render(scenario: Scenario): Scenario {
    return this.list.reduce((s, e) => (e.render ? e.render(s) : s), scenario);
  }

  tracking(tracker: DrillTracker): void {
    for (const e of this.list) e.tracking?.(tracker);
  }

  async afterHandshake(server: ProcIdentity | null, wait: <T>(p: Promise<T>) => Promise<T>): Promise<void> {
    for (const e of this.list) if (e.afterHandshake) await wait(e.afterHandshake(server));
  }

  async snapshot(label: SnapshotLabel, wait: <T>(p: Promise<T>) => Promise<T>): Promise<void> {
    for (const e of this.list) if (e.snapshot) await wait(e.snapshot(label));
  }

  async contain(termWaitMs: number): Promise<void> {
    for (const e of this.list) if (e.contain) await e.contain(termWaitMs);
  }
}
