import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, EvidenceLogError, GENESIS, readEvidenceLog, sha256, writeEvidenceLog } from '../../harness/evidence/log.js';
import { judge } from '../../harness/results/judge.js';
import { containmentRecord, EvidenceBuilder, passingDrill, survivor } from '../checks/evidence-builder.js';
import { tempDir } from '../support/temp-dir.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('crash-drill-evidence-');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A drill with every kind of awkward value: nested objects, nulls, unicode, newlines in text. */
function richDrill() {
  return new EvidenceBuilder({ point: 'in-flight', mode: 'close' })
    .start(1000.125)
    .spawned(1010.5)
    .handshake(1100, 'ünïcødé ✓', null, '2025-11-25')
    .rpcIn(1101, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'a\nb' }] } })
    .stdoutNoise(1102, 'plain "quoted" line\twith tab')
    .stderr(1103, 'line one\nline two\n')
    .pointReached(1200, 'in-flight', 'dispatched id 2')
    .clientLost(1200.75, 'close', 'stdin closed')
    .stopStep(1200.75, 'close-stdin')
    .stopStep(3200, 'SIGTERM')
    .signal(3300, { signal: 'SIGKILL', result: 'zombie' })
    .serverExit(3210.3, { code: null, signal: 'SIGTERM', observedBy: 'client' })
    .snapshot(3800, [survivor({ cmdline: ['node', '--x=[redacted]'], credential: { present: true, vars: ['TOKEN'] } })])
    .containment(4900, [containmentRecord({ forced: true, endedBy: 'SIGKILL' })])
    .end(5000)
    .build();
}

describe('evidence log', () => {
  it('writes one JSON event per line to <dir>/<drillId>.jsonl, each chained to the line before, and nothing else', () => {
    const ev = passingDrill().build();
    const info = writeEvidenceLog(dir, ev);
    expect(info.file).toBe(`${ev.meta.drillId}.jsonl`);
    expect(readdirSync(dir)).toEqual([`${ev.meta.drillId}.jsonl`]);
    const text = readFileSync(join(dir, info.file), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(ev.events.map((event, i) => ({ ...event, prev: i === 0 ? GENESIS : sha256(lines[i - 1]) })));
    expect(info).toEqual({ file: info.file, head: sha256(lines[lines.length - 1]), records: ev.events.length });
  });

  it('chainEvents gives the same lines and head as the file', () => {
    const ev = passingDrill().build();
    const info = writeEvidenceLog(dir, ev);
    const { lines, head } = chainEvents(ev.events);
    expect(readFileSync(join(dir, info.file), 'utf8')).toBe(lines.join('\n') + '\n');
    expect(head).toBe(info.head);
    expect(chainEvents([])).toEqual({ lines: [], head: GENESIS });
  });

  it('creates a missing folder', () => {
    const nested = join(dir, 'a', 'b');
    const info = writeEvidenceLog(nested, passingDrill().build());
    expect(readdirSync(nested)).toEqual([info.file]);
  });

  it('round-trips: read(write(ev)) equals ev, meta taken from drill-start', () => {
    for (const ev of [passingDrill().build(), richDrill()]) {
      expect(readEvidenceLog(join(dir, writeEvidenceLog(dir, ev).file))).toEqual(ev);
    }
  });

  it('gives the same judgement from the saved log as from the live evidence', () => {
    for (const ev of [passingDrill().build(), richDrill()]) {
      const again = judge(readEvidenceLog(join(dir, writeEvidenceLog(dir, ev).file)));
      expect(again).toEqual(judge(ev));
    }
    // And the judgement is not trivial: the rich drill fails on the SIGTERM and the survivor.
    expect(judge(richDrill()).verdict).toBe('fail');
  });

  it('refuses a file without a drill-start record, naming the file', () => {
    const file = join(dir, 'headless.jsonl');
    const events = passingDrill()
      .build()
      .events.filter((e) => e.type !== 'drill-start');
    writeFileSync(file, events.map((e) => JSON.stringify(e)).join('\n') + '\n');
    expect(() => readEvidenceLog(file)).toThrow(new EvidenceLogError(`${file}: no drill-start record, so this is not a drill's evidence`));
  });

  it('refuses an empty file the same way', () => {
    const file = join(dir, 'empty.jsonl');
    writeFileSync(file, '');
    expect(() => readEvidenceLog(file)).toThrow(`${file}: no drill-start record`);
  });

  it('refuses a broken line, naming the file and the line number', () => {
    const file = join(dir, writeEvidenceLog(dir, passingDrill().build()).file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = lines[3].slice(0, 10); // a torn write
    writeFileSync(file, lines.join('\n'));
    expect(() => readEvidenceLog(file)).toThrow(new EvidenceLogError(`${file}: line 4 is not JSON`));
  });

  it('reads a log whose last line has no newline (a run killed mid-write of the next line is caught above)', () => {
    const ev = passingDrill().build();
    const file = join(dir, 'no-newline.jsonl');
    writeFileSync(file, ev.events.map((e) => JSON.stringify(e)).join('\n'));
    expect(readEvidenceLog(file)).toEqual(ev);
  });
});

describe('evidence log line numbers', () => {
  it('counts blank lines when naming a broken line, and the error has a stable code', () => {
    const dir = tempDir('crash-drill-evidence-');
    const file = join(dir, 'blank.jsonl');
    writeFileSync(file, '{"seq":0,"t":1,"source":"harness","type":"drill-end"}\n\nBROKEN\n');
    try {
      readEvidenceLog(file);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EvidenceLogError);
      expect((error as EvidenceLogError).message).toBe(`${file}: line 3 is not JSON`);
      expect((error as EvidenceLogError).code).toBe('CRASH_DRILL_EVIDENCE');
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
