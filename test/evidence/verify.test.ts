/**
 * Tamper tests: a real chained log (written by writeEvidenceLog from synthetic events) in the
 * report layout, then one kind of damage at a time; verifyLog must catch it and name the record.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, GENESIS, sha256, writeEvidenceLog } from '../../harness/evidence/log.js';
import { verifyFolder, verifyLine, verifyLog, verifyPath, VerifyPathError } from '../../harness/evidence/verify.js';
import { passingDrill } from '../checks/evidence-builder.js';
import { tempDir } from '../support/temp-dir.js';

let report: string;
let file: string;
let lines: string[];
let info: { file: string; head: string; records: number };
const drillId = 'cd-20260101T000000-abcdef-0003';

beforeEach(() => {
  report = tempDir('crash-drill-verify-');
  // The passing drill plus stderr chatter before its end, so damage can sit in the middle.
  const ev = passingDrill().build();
  const extra = Array.from({ length: 8 }, (_, i) => ({ seq: 0, t: 2000 + i, source: 'harness' as const, type: 'subject-stderr' as const, text: `line ${i}` }));
  ev.events = [...ev.events.slice(0, -1), ...extra, ev.events[ev.events.length - 1]].map((e, seq) => ({ ...e, seq }));
  info = writeEvidenceLog(join(report, 'evidence'), ev);
  file = join(report, 'evidence', info.file);
  lines = readFileSync(file, 'utf8').trimEnd().split('\n');
  writeFileSync(
    join(report, 'results.json'),
    JSON.stringify({ version: 1, summary: { pass: 1, fail: 0, unknown: 0, error: 0 }, drills: [{ id: drillId, evidence: info }] }),
  );
});
afterEach(() => {
  rmSync(report, { recursive: true, force: true });
});

const save = (next: string[], trailing = '\n') => writeFileSync(file, next.join('\n') + trailing);

describe('verifyLog', () => {
  it('an untouched log verifies, with the head and count results.json holds', () => {
    expect(lines.length).toBeGreaterThanOrEqual(12);
    const r = verifyLog(file);
    expect(r).toEqual({ file, drillId, ok: true, records: lines.length, head: info.head, problem: null });
    expect(r.head).toBe(sha256(lines[lines.length - 1]));
    expect(verifyLine(r, 'x.jsonl')).toBe(`ok x.jsonl ${lines.length} records, head ${info.head.slice(0, 12)}`);
    // The chain is the writer's: the first prev is GENESIS, each next prev the previous line's hash.
    expect(JSON.parse(lines[0]).prev).toBe(GENESIS);
    expect(JSON.parse(lines[5]).prev).toBe(sha256(lines[4]));
  });

  it('a changed byte in a record names that record (the one that no longer hashes to the next prev)', () => {
    const next = [...lines];
    const at = next.findIndex((line) => line.includes('"line 1"'));
    expect(at).toBeGreaterThan(0);
    next[at] = next[at].replace('line 1', 'line 7'); // one byte, same length, still JSON
    save(next);
    const r = verifyLog(file);
    expect(r.ok).toBe(false);
    expect(r.problem).toMatchObject({ code: 'changed', line: at + 1, drillId });
    expect(verifyLine(r, 'x.jsonl')).toBe(`BROKEN x.jsonl: record ${at + 1}: changed: its bytes no longer hash to the prev of record ${at + 2}`);
  });

  it("a changed byte in a record's own prev names that record, not the one before", () => {
    const next = [...lines];
    const prev = JSON.parse(next[6]).prev as string;
    next[6] = next[6].replace(prev, `${prev[0] === 'a' ? 'b' : 'a'}${prev.slice(1)}`);
    save(next);
    expect(verifyLog(file).problem).toMatchObject({ code: 'changed', line: 7 });
  });

  it('a change that breaks the JSON is named as such, with its line', () => {
    const next = [...lines];
    next[3] = next[3].slice(0, 20);
    save(next);
    expect(verifyLog(file).problem).toMatchObject({ code: 'not-json', line: 4, drillId });
  });

  it('a changed last record is caught by the head results.json holds', () => {
    const next = [...lines];
    next[next.length - 1] = next[next.length - 1].replace('"t":', '"t": ');
    save(next);
    const r = verifyLog(file);
    expect(r.problem).toMatchObject({ code: 'head-mismatch', line: lines.length });
    expect(r.problem!.message).toContain(`results.json says ${lines.length} records with head ${info.head.slice(0, 12)}…`);
    // Without results.json the chain alone cannot see it: say so by proving the other way.
    rmSync(join(report, 'results.json'));
    expect(verifyLog(file).ok).toBe(true);
  });

  it('a dropped record names the line where the chain breaks and how many are gone', () => {
    save(lines.filter((_, i) => i !== 6)); // record 7 (seq 6) dropped
    const r = verifyLog(file);
    expect(r.problem).toMatchObject({ code: 'dropped', line: 7, drillId });
    expect(verifyLine(r, 'x.jsonl')).toBe(
      'BROKEN x.jsonl: record 7: 1 record dropped between record 6 and this one (seq jumps from 5 to 7, and its prev matches no line)',
    );
  });

  it('a dropped first record: the new first record neither starts at GENESIS nor at seq 0', () => {
    save(lines.slice(1));
    expect(verifyLog(file).problem).toMatchObject({ code: 'dropped', line: 1 });
  });

  it('a first record whose prev is not GENESIS', () => {
    const next = [...lines];
    next[0] = next[0].replace(GENESIS, '1'.repeat(64));
    save(next);
    expect(verifyLog(file).problem).toMatchObject({ code: 'bad-genesis', line: 1 });
  });

  it('two records swapped are named as out of order', () => {
    const next = [...lines];
    [next[5], next[6]] = [next[6], next[5]];
    save(next);
    const r = verifyLog(file);
    expect(r.problem).toMatchObject({ code: 'reordered', line: 6 });
    expect(r.problem!.message).toBe('out of order: its prev is the hash of record 7, not of record 5');
  });

  it('a cut-off tail is caught against results.json', () => {
    save(lines.slice(0, lines.length - 3));
    const r = verifyLog(file);
    expect(r.problem).toMatchObject({ code: 'cut-off', line: null });
    expect(verifyLine(r, 'x.jsonl')).toBe(
      `BROKEN x.jsonl: the log ends early: results.json says ${lines.length} records with head ${info.head.slice(0, 12)}…, the file has ${lines.length - 3}`,
    );
  });

  it('a tail cut mid-line, or just before its newline', () => {
    writeFileSync(file, lines.join('\n').slice(0, -15));
    expect(verifyLog(file).problem).toMatchObject({ code: 'not-json', line: lines.length });
    save(lines, '');
    expect(verifyLog(file).problem).toMatchObject({ code: 'torn-tail', line: lines.length });
  });

  it('a log in the old, unchained format and an empty file', () => {
    save(lines.map((l) => JSON.stringify({ ...JSON.parse(l), prev: undefined })));
    expect(verifyLog(file).problem).toMatchObject({ code: 'no-prev', line: 1 });
    writeFileSync(file, '');
    expect(verifyLog(file).problem).toMatchObject({ code: 'empty', line: null });
  });

  it('a blank line inside the log', () => {
    save([...lines.slice(0, 3), '', ...lines.slice(3)]);
    expect(verifyLog(file).problem).toMatchObject({ code: 'blank-line', line: 4 });
  });
});

describe('verifyFolder', () => {
  it('verifies every log, and reports a log results.json names that is gone or one it does not name', () => {
    const other = chainEvents(passingDrill({ drillId: 'cd-other' }).build().events);
    writeFileSync(join(report, 'evidence', 'cd-other.jsonl'), other.lines.join('\n') + '\n');
    const all = verifyFolder(report);
    expect(all.dir).toBe(join(report, 'evidence'));
    expect(all.logs.map((l) => [l.drillId, l.ok, l.problem?.code ?? null])).toEqual([
      [drillId, true, null],
      ['cd-other', false, 'not-in-results'],
    ]);
    rmSync(file);
    expect(verifyFolder(join(report, 'evidence')).logs.map((l) => [l.drillId, l.problem?.code])).toEqual([
      ['cd-other', 'not-in-results'],
      [drillId, 'missing'],
    ]);
  });

  it('without results.json, a folder of intact logs verifies', () => {
    rmSync(join(report, 'results.json'));
    const dir = join(report, 'evidence');
    writeEvidenceLog(dir, passingDrill({ drillId: 'cd-second' }).build());
    expect(verifyPath(dir).map((l) => l.ok)).toEqual([true, true]);
  });

  it('a bad path is a typed error', () => {
    expect(() => verifyPath(join(report, 'nope'))).toThrow(VerifyPathError);
    try {
      verifyFolder(file);
    } catch (error) {
      expect((error as VerifyPathError).code).toBe('CRASH_DRILL_VERIFY_PATH');
      return;
    }
    expect.unreachable();
  });
});
