/** Queries over a drill's container events (harness/containers/types.ts): checks and results read containers only through these. */
import { describeStep, engineCommandLine, type StepOf } from '../containment/step.js';
import { eventsOf, firstOf, type DrillEvidence, type EvidenceOf } from './types.js';
import type { ContainerContainment } from '../containment/containers.js';

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

export function containerContainmentOf(evidence: DrillEvidence): ContainerContainment[] {
  return eventsOf(evidence, 'container-containment').flatMap((e) => e.records);
}

/** How a container was contained, one line a step as people read it (describeStep), for the diagnosis. */
export function containerStepLines(evidence: DrillEvidence, id: string): string[] {
  return (containerContainmentOf(evidence).find((r) => r.id === id)?.steps ?? []).map(describeStep);
}

/** The first engine command the harness sent to a container before time t (`docker stop --time 1`, `docker kill`), or null. */
export function containerCommandBefore(evidence: DrillEvidence, id: string, t: number): StepOf<'engine'> | null {
  const record = containerContainmentOf(evidence).find((r) => r.id === id);
  const sent = record?.steps.find((s): s is StepOf<'engine'> => s.t <= t + 1 && s.kind === 'engine' && s.result === 'sent');
  return sent ?? null;
}

/** The harness's first containment command on a container before time t, as the verdicts say it: "docker stop --time 1 from the harness". */
export function containerStopBefore(evidence: DrillEvidence, id: string, t: number): string | null {
  const sent = containerCommandBefore(evidence, id, t);
  return sent ? `${engineCommandLine(sent)} from the harness` : null;
}

export function shortId(id: string): string {
  return id.slice(0, 12);
}
