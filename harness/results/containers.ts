/** The container part of a drill's result, built from the evidence alone. */
import { containerContainmentOf, containerExitOf, containerServerOf, containerSnapshotOf, containerStopBefore } from '../evidence/container-queries.js';
import { firstOf, type DrillEvidence } from '../evidence/types.js';
import type { AmbiguousContainer, ContainerRow, LabelChange } from '../containers/index.js';
import { didNotExit, type ExitInfo } from './exit-info-types.js';
import type { ContainerContainment } from '../containment/containers.js';

export interface ContainersResult {
  /** How the harness changed the subject command to label its container. */
  label: LabelChange | null;
  engine: { name: string; reachable: boolean; version: string | null } | null;
  server: ContainerRow | null;
  /** Running containers of the drill at the end of the grace period: survivors. */
  survivors: ContainerRow[];
  ambiguous: AmbiguousContainer[];
  containment: ContainerContainment[];
  forced: boolean;
  blindSpots: string[];
}

export function containersResult(evidence: DrillEvidence): ContainersResult | null {
  const label = firstOf(evidence, 'container-label')?.change ?? null;
  const engine = firstOf(evidence, 'container-engine');
  const snapshot = containerSnapshotOf(evidence);
  if (!label && !engine && !snapshot) return null;
  const containment = containerContainmentOf(evidence);
  return {
    label,
    engine: engine ? { name: engine.engine, reachable: engine.reachable, version: engine.version } : null,
    server: containerServerOf(evidence)?.container ?? null,
    survivors: snapshot?.running ?? [],
    ambiguous: snapshot?.ambiguous ?? [],
    containment,
    forced: containment.some((r) => r.forced),
    blindSpots: snapshot?.blindSpots ?? [],
  };
}

/** The exit record of a server in a container: its container's exit code; the launcher is the engine CLI. */
export function containerExitInfo(evidence: DrillEvidence, stderrTail: string): ExitInfo | null {
  const server = containerServerOf(evidence);
  if (!server) return null;
  const launcher = server.cli.pid > 0 ? { pid: server.cli.pid, command: server.cli.cmdline.join(' ') } : null;
  const exit = containerExitOf(evidence);
  const loss = firstOf(evidence, 'client-lost');
  const pid = server.container.pid;
  if (!exit) return didNotExit(pid, stderrTail, launcher);
  const stopped = containerStopBefore(evidence, exit.id, exit.t);
  return {
    pid,
    code: exit.code,
    signal: null,
    class: exit.code === null ? 'unknown' : exit.code === 0 ? 'clean' : 'exit-code',
    signalFrom: null,
    endedAfter: stopped,
    afterLossMs: loss ? Math.round(exit.t - loss.t) : null,
    crash: null,
    stderrTail,
    launcher,
    // The engine's record of the container's exit code: the server's own (its main process).
    statusFrom: exit.code === null ? null : 'server',
  };
}
