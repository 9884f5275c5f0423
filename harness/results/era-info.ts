/** The protocol era a drill spoke and how it was chosen (EraChoice), from the client's handshake event. */
import type { EraChoice } from '../shared/protocol.js';
import { firstOf, type DrillEvidence } from '../evidence/types.js';

export interface DrillEra {
  era: string;
  chosenBy: EraChoice;
  fallbackReason: string | null;
}

export function eraOf(evidence: DrillEvidence): DrillEra | null {
  const handshake = firstOf(evidence, 'handshake');
  if (!handshake?.era || !handshake.chosenBy) return null;
  return { era: handshake.era, chosenBy: handshake.chosenBy, fallbackReason: handshake.fallbackReason ?? null };
}

/** One line for the incident record: `2025-11-25, fell back from server/discover (MCP error -32601: Method not found)`. */
export function describeEra(era: DrillEra | null, evidence: DrillEvidence): string {
  if (!era) {
    const asked = evidence.meta.protocol ?? 'auto';
    const probe = firstOf(evidence, 'era-probe');
    return `no era was established (protocol ${asked}${probe ? `; the server/discover probe: ${probe.outcome}, ${probe.detail}` : ''})`;
  }
  if (era.chosenBy === 'probed') return `${era.era}, probed (server/discover answered)`;
  if (era.chosenBy === 'probed-late') return `${era.era}, probed (server/discover answered after its timeout; the initialize sent meanwhile was not used)`;
  if (era.chosenBy === 're-probed') return `${era.era}, re-probed (initialize was refused for 2026-07-28, and server/discover asked again was answered)`;
  if (era.chosenBy === 'pinned') return `${era.era}, pinned by the scenario`;
  return `${era.era}, fell back to initialize after server/discover failed (${era.fallbackReason ?? 'no reason recorded'})`;
}
