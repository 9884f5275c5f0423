/** The drill's process containment (container containment is in container-queries.ts). Pure, like the other evidence queries. */
import { eventsOf, type ContainmentRecord, type DrillEvidence } from './types.js';

export function containmentRecordsOf(evidence: DrillEvidence): ContainmentRecord[] {
  return eventsOf(evidence, 'containment').flatMap((e) => e.records);
}
