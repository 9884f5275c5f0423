/** A drill's evidence log, parsed here (reporters import only result types), with its SHA-256 chain checked (harness/evidence/log.ts). */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** An evidence event as the report uses it: loosely typed, read-only. */
export interface LogEvent {
  seq?: number;
  t: number;
  source?: string;
  type: string;
  [key: string]: unknown;
}

export interface EvidenceRead {
  events: LogEvent[];
  /** 'intact', or why not: a broken link or a head that differs from results.json. */
  chain: string;
}

const GENESIS = '0'.repeat(64);

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function readEvidence(file: string, expectedHead: string | null): EvidenceRead | { error: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { error: `cannot read the evidence log: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  const events: LogEvent[] = [];
  let prev = GENESIS;
  let chain = 'intact';
  const lines = text.split('\n').filter((line) => line !== '');
  for (const [index, line] of lines.entries()) {
    let parsed: LogEvent & { prev?: string };
    try {
      parsed = JSON.parse(line) as LogEvent & { prev?: string };
    } catch {
      return { error: `line ${index + 1} of the evidence log is not JSON` };
    }
    const { prev: linked, ...event } = parsed;
    if (chain === 'intact' && linked !== prev) chain = `broken at line ${index + 1}: its prev does not hash the line before`;
    prev = sha256(line);
    if (typeof event.t === 'number' && typeof event.type === 'string') events.push(event);
  }
  if (chain === 'intact' && expectedHead !== null && prev !== expectedHead)
    chain = 'the head differs from the one in results.json (the log was cut or changed)';
  return { events, chain };
}
