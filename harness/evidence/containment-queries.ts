/**
 * The drill's process containment, as typed steps whatever the log's age (container
 * containment is in container-queries.ts). Logs written before every step named its target
 * hold the process on the record only; upgradeStep() (harness/containment/step.ts)
 * gives each step its record's process. Pure, like the other evidence queries.
 */
import { upgradeStep, type ContainmentStep, type LegacyStep } from '../containment/step.js';
import { eventsOf, type ContainmentRecord, type DrillEvidence } from './types.js';

export function containmentRecordsOf(evidence: DrillEvidence): ContainmentRecord[] {
  return eventsOf(evidence, 'containment').flatMap((e) =>
    e.records.map((r) => ({
      ...r,
      steps: (r.steps as (ContainmentStep | LegacyStep)[]).map((s) => upgradeStep(s, { pid: r.pid, startTime: r.startTime })),
    })),
  );
}
