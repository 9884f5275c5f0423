/**
 * Queries over the container events of a drill (harness/containers/types.ts). Pure, like the
 * other evidence queries: checks and results read containers only through these.
 */
import { eventsOf, firstOf, type DrillEvidence, type EvidenceOf } from './types.js';

/** The subject's own container and the engine CLI in front of it, when the server runs in one. */
export function containerServerOf(evidence: DrillEvidence): EvidenceOf<'container-server'> | undefined {
  return firstOf(evidence, 'container-server');
}

/** The subject container's exit as the engine reported it (its exit code is the server's). */
export function containerExitOf(evidence: DrillEvidence): EvidenceOf<'container-exit'> | undefined {
  const server = containerServerOf(evidence);
  return server ? eventsOf(evidence, 'container-exit').find((e) => e.id === server.container.id) : undefined;
}

export function containerSnapshotOf(evidence: DrillEvidence): EvidenceOf<'container-snapshot'> | undefined {
  return firstOf(evidence, 'container-snapshot');
}

export function containerContainmentOf(evidence: DrillEvidence) {
  return eventsOf(evidence, 'container-containment').flatMap((e) => e.records);
}

/** The harness's first containment step on a container before time t (`docker stop`, `docker kill`). */
export function containerStopBefore(evidence: DrillEvidence, id: string, t: number): string | null {
  const record = containerContainmentOf(evidence).find((r) => r.id === id);
  const step = record?.steps.find((s) => s.t <= t + 1 && /: sent$/.test(s.action));
  return step ? `${step.action.replace(/: sent$/, '')} from the harness` : null;
}

export function shortId(id: string): string {
  return id.slice(0, 12);
}
