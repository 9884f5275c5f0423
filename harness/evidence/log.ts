import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DrillEvidence, EvidenceEvent } from './types.js';
import { UserError } from '../util/errors.js';

/** One JSONL file per drill, each line's `prev` the SHA-256 of the line before; the head, kept in results.json, catches a cut tail. */
export const GENESIS = '0'.repeat(64);

export interface EvidenceLogInfo {
  file: string;
  head: string;
  records: number;
}

export class EvidenceLogError extends UserError {
  readonly code = 'CRASH_DRILL_EVIDENCE';
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The chained lines of an evidence log, and its head. */
export function chainEvents(events: readonly EvidenceEvent[]): { lines: string[]; head: string } {
  const lines: string[] = [];
  let prev = GENESIS;
  for (const event of events) {
    const line = JSON.stringify({ ...event, prev });
    lines.push(line);
    prev = sha256(line);
  }
  return { lines, head: prev };
}

export function writeEvidenceLog(dir: string, evidence: DrillEvidence): EvidenceLogInfo {
  mkdirSync(dir, { recursive: true });
  const name = `${evidence.meta.drillId}.jsonl`;
  const file = join(dir, name);
  const { lines, head } = chainEvents(evidence.events);
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, lines.join('\n') + '\n');
  renameSync(tmp, file);
  return { file: name, head, records: lines.length };
}

/** Reads a log back into evidence (without judging its chain: see verify.ts for that). */
export function readEvidenceLog(file: string): DrillEvidence {
  const events: EvidenceEvent[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      try {
        const { prev: _prev, ...event } = JSON.parse(line) as EvidenceEvent & { prev?: string };
        events.push(event as EvidenceEvent);
      } catch {
        throw new EvidenceLogError(`${file}: line ${index + 1} is not JSON`);
      }
    });
  const start = events.find((event) => event.type === 'drill-start');
  if (!start || start.type !== 'drill-start') throw new EvidenceLogError(`${file}: no drill-start record, so this is not a drill's evidence`);
  return { meta: start.meta, events };
}
