import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DrillEvidence, EvidenceEvent } from './types.js';

/**
 * One JSONL file per drill: one event a line, in recording order. The first event
 * (`drill-start`) carries the drill's meta, so the file alone is enough to re-check the drill.
 */
export function writeEvidenceLog(dir: string, evidence: DrillEvidence): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${evidence.meta.drillId}.jsonl`);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, evidence.events.map((event) => JSON.stringify(event)).join('\n') + '\n');
  renameSync(tmp, file);
  return file;
}

export class EvidenceLogError extends Error {
  readonly code = 'CRASH_DRILL_EVIDENCE';
}

export function readEvidenceLog(file: string): DrillEvidence {
  const events: EvidenceEvent[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        events.push(JSON.parse(line) as EvidenceEvent);
      } catch {
        throw new EvidenceLogError(`${file}: line ${index + 1} is not JSON`);
      }
    });
  const start = events.find((event) => event.type === 'drill-start');
  if (!start || start.type !== 'drill-start') throw new EvidenceLogError(`${file}: no drill-start record, so this is not a drill's evidence`);
  return { meta: start.meta, events };
}
