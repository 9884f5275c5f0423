/**
 * Verifies hash-chained evidence logs (log.ts). In a report folder the head and record count are
 * also compared with results.json, which catches a cut-off tail the chain cannot see.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GENESIS } from './log.js';
import { UserError } from '../util/errors.js';

/** Stable codes of the ways a log can be broken. */
export type BreakCode =
  | 'changed' // a record's bytes no longer hash to the next record's prev
  | 'dropped' // records are missing between two lines (or before the first)
  | 'reordered' // a record's prev is the hash of a line other than the one before it
  | 'not-json' // a line is not JSON (a torn write or an edit)
  | 'no-prev' // a record carries no prev: not a chained log
  | 'bad-genesis' // the first record's prev is not GENESIS
  | 'blank-line' // an empty line inside the log
  | 'torn-tail' // the file does not end with a newline: its last write was cut
  | 'empty' // no record at all
  | 'cut-off' // fewer records than results.json says
  | 'extra-records' // more records than results.json says
  | 'head-mismatch' // as many records as results.json says, but another head
  | 'not-in-results' // results.json sits next to the folder but names no such log
  | 'missing' // results.json names a log that is not in the folder
  | 'unreadable' // the file cannot be read
  | 'not-a-drill'; // a valid chain, but no drill-start record: not a drill's evidence (check-command.ts)

export interface ChainBreak {
  code: BreakCode;
  /** 1-based line number of the record at fault, or null when the fault is the whole file's. */
  line: number | null;
  /** The drill the log belongs to (from its drill-start record, else from the file name). */
  drillId: string;
  message: string;
}

export interface VerifyResult {
  file: string;
  drillId: string;
  ok: boolean;
  records: number;
  /** SHA-256 of the last line's bytes (null for an empty or unreadable file). */
  head: string | null;
  /** The first break found (null when ok). */
  problem: ChainBreak | null;
}

/** What verification reads of results.json, declared here so the evidence layer need not depend on the results layer. */
export interface ResultsLogs {
  drills: { id: string; evidence: { file: string; head: string; records: number } | null }[];
}

/** What results.json says a log should be. */
export interface ExpectedLog {
  head: string;
  records: number;
}

export class VerifyPathError extends UserError {
  readonly code = 'CRASH_DRILL_VERIFY_PATH';
}

const NEWLINE = 0x0a;

function hashBytes(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

interface Line {
  n: number;
  bytes: Buffer;
  hash: string;
  record: { seq?: unknown; prev?: unknown; type?: unknown; meta?: { drillId?: unknown } } | null;
}

function splitLines(data: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = data.indexOf(NEWLINE); i !== -1; i = data.indexOf(NEWLINE, start)) {
    lines.push(data.subarray(start, i));
    start = i + 1;
  }
  if (start < data.length) lines.push(data.subarray(start));
  return lines;
}

function parse(bytes: Buffer): Line['record'] {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Line['record']) : null;
  } catch {
    return null;
  }
}

const short = (hash: string) => `${hash.slice(0, 12)}…`;
const drillIdOfFile = (file: string) => basename(file).replace(/\.jsonl$/, '');

/** The results.json of the report folder a log sits in (`<report>/evidence/<file>`), if any. */
export function resultsBeside(file: string): ResultsLogs | null {
  const path = join(dirname(dirname(file)), 'results.json');
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ResultsLogs;
  } catch {
    return null;
  }
}

function expectedFor(file: string, results: ResultsLogs): ExpectedLog | null {
  const name = basename(file);
  const drill = results.drills.find((d) => d.evidence?.file === name);
  return drill?.evidence ? { head: drill.evidence.head, records: drill.evidence.records } : null;
}

/** Explains why line `i` (0-based) does not chain to the line before it. */
function explainBreak(lines: Line[], i: number, byHash: Map<string, number>, drillId: string): ChainBreak {
  const line = lines[i];
  const prev = line.record?.prev as string;
  const seq = typeof line.record?.seq === 'number' ? line.record.seq : null;
  const before = i > 0 ? lines[i - 1] : null;
  const beforeSeq = before && typeof before.record?.seq === 'number' ? before.record.seq : -1;
  const target = byHash.get(prev);
  if (target !== undefined && target !== i - 1) {
    return {
      code: 'reordered',
      line: line.n,
      drillId,
      message: `out of order: its prev is the hash of record ${lines[target].n}, not of ${before ? `record ${before.n}` : 'GENESIS'}`,
    };
  }
  if (seq !== null && seq > beforeSeq + 1) {
    const missing = seq - beforeSeq - 1;
    const where = before ? `between record ${before.n} and this one` : 'before it';
    return {
      code: 'dropped',
      line: line.n,
      drillId,
      message: `${missing} record${missing === 1 ? '' : 's'} dropped ${where} (seq jumps from ${beforeSeq} to ${seq}, and its prev matches no line)`,
    };
  }
  if (!before) return { code: 'bad-genesis', line: line.n, drillId, message: `the first record's prev is ${short(prev)}, not GENESIS (64 zeros)` };
  // A changed byte in record k breaks only the link k -> k+1, unless it is in k's own prev,
  // which breaks k-1 -> k as well as k -> k+1: then k itself is the changed record.
  const next = lines[i + 1];
  const ownPrevChanged = next !== undefined && next.record?.prev !== line.hash && !byHash.has(next.record?.prev as string);
  if (ownPrevChanged)
    return {
      code: 'changed',
      line: line.n,
      drillId,
      message: `changed: its prev field no longer matches record ${before.n}, and its bytes no longer hash to record ${next.n}'s prev`,
    };
  return { code: 'changed', line: before.n, drillId, message: `changed: its bytes no longer hash to the prev of record ${line.n}` };
}

/** Recomputes one log's chain; `expected` undefined: the results.json beside the folder, if any; null: chain only. */
export function verifyLog(file: string, expected?: ExpectedLog | null): VerifyResult {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    const id = drillIdOfFile(file);
    const message = `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
    return { file, drillId: id, ok: false, records: 0, head: null, problem: { code: 'unreadable', line: null, drillId: id, message } };
  }
  if (expected === undefined) {
    const results = resultsBeside(file);
    expected = results ? expectedFor(file, results) : null;
    if (results && !expected) expected = { head: '', records: -1 }; // a log results.json does not know
  }
  const raw = splitLines(data);
  const lines: Line[] = raw.map((bytes, index) => ({ n: index + 1, bytes, hash: hashBytes(bytes), record: bytes.length > 0 ? parse(bytes) : null }));
  const start = lines.find((l) => l.record?.type === 'drill-start')?.record;
  const drillId = typeof start?.meta?.drillId === 'string' ? start.meta.drillId : drillIdOfFile(file);
  const head = lines.length > 0 ? lines[lines.length - 1].hash : null;
  const result = (problem: ChainBreak | null): VerifyResult => ({
    file,
    drillId,
    ok: problem === null,
    records: lines.filter((l) => l.bytes.length > 0).length,
    head,
    problem,
  });

  if (lines.length === 0) return result({ code: 'empty', line: null, drillId, message: 'the log holds no record' });
  for (const line of lines) {
    if (line.bytes.length === 0) return result({ code: 'blank-line', line: line.n, drillId, message: 'an empty line inside the log' });
    if (!line.record) return result({ code: 'not-json', line: line.n, drillId, message: 'not a JSON record (a torn write or an edit)' });
    if (typeof line.record.prev !== 'string') return result({ code: 'no-prev', line: line.n, drillId, message: 'no prev hash: not a chained evidence log' });
  }
  const byHash = new Map(lines.map((l, index) => [l.hash, index] as const));
  for (let i = 0; i < lines.length; i++) {
    const want = i === 0 ? GENESIS : lines[i - 1].hash;
    if (lines[i].record!.prev !== want) return result(explainBreak(lines, i, byHash, drillId));
  }
  if (data[data.length - 1] !== NEWLINE) {
    return result({ code: 'torn-tail', line: lines.length, drillId, message: 'the file does not end with a newline: its last write was cut off' });
  }
  if (expected) {
    const n = lines.length;
    if (expected.records < 0)
      return result({ code: 'not-in-results', line: null, drillId, message: 'results.json beside the evidence folder names no such log' });
    const says = `results.json says ${expected.records} records with head ${short(expected.head)}`;
    if (n < expected.records) return result({ code: 'cut-off', line: null, drillId, message: `the log ends early: ${says}, the file has ${n}` });
    if (n > expected.records)
      return result({ code: 'extra-records', line: null, drillId, message: `the log has records past its end: ${says}, the file has ${n}` });
    if (head !== expected.head) return result({ code: 'head-mismatch', line: n, drillId, message: `changed: ${says}, the file's head is ${short(head!)}` });
  }
  return result(null);
}

export interface FolderVerification {
  dir: string;
  logs: VerifyResult[];
}

/** Every `*.jsonl` of an evidence folder (or `<dir>/evidence`); a log results.json names that is gone is reported too. */
export function verifyFolder(dir: string): FolderVerification {
  const evidenceDir = evidenceFolderOf(dir);
  const files = readdirSync(evidenceDir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();
  const results = resultsBeside(join(evidenceDir, 'x.jsonl'));
  const logs = files.map((name) => {
    const file = join(evidenceDir, name);
    const expected = results ? (expectedFor(file, results) ?? { head: '', records: -1 }) : null;
    return verifyLog(file, expected);
  });
  for (const drill of results?.drills ?? []) {
    if (!drill.evidence || files.includes(drill.evidence.file)) continue;
    const file = join(evidenceDir, drill.evidence.file);
    const message = `missing: results.json says ${drill.evidence.records} records with head ${short(drill.evidence.head)}, the folder has no such file`;
    logs.push({ file, drillId: drill.id, ok: false, records: 0, head: null, problem: { code: 'missing', line: null, drillId: drill.id, message } });
  }
  return { dir: evidenceDir, logs };
}

export function evidenceFolderOf(dir: string): string {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new VerifyPathError(`${dir}: not a folder`);
  const nested = join(dir, 'evidence');
  return existsSync(nested) && statSync(nested).isDirectory() ? nested : dir;
}

/** A file or a folder: the verification of every log it holds. */
export function verifyPath(path: string): VerifyResult[] {
  if (!existsSync(path)) throw new VerifyPathError(`${path}: no such file or folder`);
  return statSync(path).isDirectory() ? verifyFolder(path).logs : [verifyLog(path)];
}

/** The one-line form the CLI prints: `ok <file> N records, head <12 hex>` or `BROKEN <file>: record N: ...`. */
export function verifyLine(result: VerifyResult, file = result.file): string {
  if (result.ok) return `ok ${file} ${result.records} records, head ${result.head!.slice(0, 12)}`;
  const p = result.problem!;
  return `BROKEN ${file}: ${p.line !== null ? `record ${p.line}: ` : ''}${p.message}`;
}
