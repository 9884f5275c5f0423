/** The hash-chained log of `inspect --out` and `contain --out`, one per process identity; a broken chain is never extended. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENESIS, sha256 } from '../evidence/log.js';
import { verifyLog } from '../evidence/verify.js';
import { monoNow } from '../util/clock.js';
import { UserError } from '../util/errors.js';

export class EvidenceOutError extends UserError {
  readonly code = 'CRASH_DRILL_ORPHANS_OUT';
}

export interface AppendedLog {
  file: string;
  head: string;
  records: number;
}

export function evidenceFile(outDir: string, pid: number, startTime: number): string {
  return join(outDir, 'evidence', `pid-${pid}-${startTime}.jsonl`);
}

/** `--out` must not be a drill report folder: its results.json would not name this log. */
export function checkOutDir(outDir: string): void {
  if (existsSync(join(outDir, 'results.json'))) {
    throw new EvidenceOutError(`--out ${outDir}: this is a drill report folder (it holds results.json); give inspect and contain a folder of their own`);
  }
}

export function appendEvidence(file: string, records: readonly Record<string, unknown>[]): AppendedLog {
  let text = '';
  let prev = GENESIS;
  let seq = 0;
  if (existsSync(file)) {
    const check = verifyLog(file, null);
    if (!check.ok) throw new EvidenceOutError(`${file}: the existing evidence log is broken (${check.problem?.message}); not appending to it`);
    text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    prev = check.head ?? GENESIS;
    seq = lines.length;
  }
  const lines: string[] = [];
  for (const record of records) {
    const line = JSON.stringify({ seq: seq++, t: monoNow(), wall: new Date().toISOString(), source: 'orphans', ...record, prev });
    lines.push(line);
    prev = sha256(line);
  }
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text + lines.map((l) => `${l}\n`).join(''));
  renameSync(tmp, file);
  return { file, head: prev, records: seq };
}
