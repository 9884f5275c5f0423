/**
 * Reading the server's own activity record into the evidence. The server appends one JSON object
 * a line (docs/remote.md, "The server's own activity record"); the drill reads what is there at the
 * moments activity-recorded judges, and records each read as an `activity` event (the actions new
 * since the last read, the counts so far), so the check stays a pure function of the evidence:
 * - `request`: a write of the drill arrives at the remote. The journal's listeners run before the
 *   remote acts on the request (harness/remote/journal.ts: a synchronous emit), so what is in the
 *   record then was written before the request arrived, whether or not a gate holds it;
 * - `exit`: the server's exit is recorded: what it wrote is all there;
 * - `window-end`: the observation window is over (the grace period), for a server still running;
 * - `final`: the drill's end, for the incident record.
 *
 * A file is read from where the last read stopped, synchronously (a record written before a
 * request is sent is in the file when the request arrives). Stderr lines are parsed as the
 * server's stderr comes, and each read first takes whatever waits in the pipe, synchronously
 * (the client's drainSubjectStderr), so a line written before the request is never still in
 * the pipe. What is kept is bounded (`record.activity-entries`, `record.activity-bytes`, and
 * `record.line-bytes` for one line); the rest is counted, as record-cap.ts does for stdout.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ActivitySpec, RecordLimits } from '../../config/index.js';
import type { ActivityCounts, ActivityEntry, ActivityRead } from '../../evidence/types.js';
import { jsonOfStderrLine, readActivityLine } from './activity-line.js';
import type { EvidenceRecorder } from './recorder.js';

/** The first problems of a record are kept with their line; more say nothing new. */
const PROBLEMS = 3;
const CHUNK = 64 * 1024;

export class ActivityRecord {
  private readonly counts: ActivityCounts = { lines: 0, entries: 0, other: 0, malformed: 0, dropped: 0, bytes: 0, unreadBytes: 0, problems: [] };
  private pending: ActivityEntry[] = [];
  private kept = 0;
  /** A file: where the next read starts, and the bytes of a line not yet ended. */
  private offset = 0;
  private decoder = new StringDecoder('utf8');
  private carry = '';
  /** The line not yet ended is past line-bytes: it is counted when it ends, never held. */
  private skipping = false;
  private readonly pattern: RegExp | null;
  private done = false;

  constructor(
    private readonly spec: ActivitySpec & { drillFile?: boolean },
    private readonly limits: Pick<RecordLimits, 'activityEntries' | 'activityBytes' | 'lineBytes'>,
    private readonly rec: EvidenceRecorder,
    private readonly hooks: {
      /** Hands over, synchronously, what waits in the server's stderr pipe (a stderr source only). */
      drainStderr?: () => void;
      /** After the last read. */
      onFinish?: () => void;
    } = {},
  ) {
    this.pattern = spec.source.kind === 'stderr' ? new RegExp(spec.source.pattern) : null;
    rec.harness(
      spec.source.kind === 'file'
        ? { type: 'activity-source', kind: 'file', file: spec.source.path, ...(spec.drillFile ? { drillFile: true as const } : {}) }
        : { type: 'activity-source', kind: 'stderr', pattern: spec.source.pattern },
    );
  }

  /** The server's stderr as it comes (a stderr source reads its lines from it, up to activity-bytes). */
  stderr(text: string): void {
    if (!this.pattern || this.done) return;
    const bytes = Buffer.byteLength(text);
    // As a file is read to activity-bytes and no further: once past it, the rest is only counted.
    if (this.counts.unreadBytes > 0 || this.counts.bytes + bytes > this.limits.activityBytes) {
      this.counts.unreadBytes += bytes;
      return;
    }
    this.counts.bytes += bytes;
    this.take(text);
  }

  /** Reads what is new and records it. */
  read(read: ActivityRead, request?: number): void {
    if (this.done) return;
    let absent = false;
    if (this.spec.source.kind === 'file') absent = !this.readFile(this.spec.source.path);
    else this.hooks.drainStderr?.();
    const entries = this.pending;
    this.pending = [];
    this.rec.harness({
      type: 'activity',
      read,
      ...(request !== undefined ? { request } : {}),
      entries,
      counts: { ...this.counts, problems: [...this.counts.problems] },
      ...(absent ? { absent: true as const } : {}),
    });
  }

  /** The last read; nothing is read after it. */
  finish(): void {
    if (this.done) return;
    this.read('final');
    this.done = true;
    this.hooks.onFinish?.();
  }

  /** False when the file is not there (yet), or is not a regular file. */
  private readFile(path: string): boolean {
    let fd: number;
    try {
      // O_NONBLOCK: a path that names a FIFO must not hold the harness in open().
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch {
      return false;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) {
        this.problem(`${path} is not a regular file`);
        return false;
      }
      if (st.size < this.offset) {
        // Truncated or replaced: read it again from its start.
        this.problem(`the file was truncated after ${this.offset} bytes`);
        this.offset = 0;
        this.decoder = new StringDecoder('utf8');
        this.carry = '';
      }
      const budget = Math.max(0, this.limits.activityBytes - this.counts.bytes);
      const want = Math.min(st.size - this.offset, budget);
      this.counts.unreadBytes = Math.max(0, st.size - this.offset - want);
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, want)));
      let left = want;
      while (left > 0) {
        const n = readSync(fd, buf, 0, Math.min(buf.length, left), this.offset);
        if (n === 0) break;
        this.offset += n;
        this.counts.bytes += n;
        left -= n;
        this.take(this.decoder.write(buf.subarray(0, n)));
      }
      return true;
    } finally {
      closeSync(fd);
    }
  }

  /** Splits text into lines; the last one, not yet ended, waits for the rest. */
  private take(text: string): void {
    let rest = this.carry + text;
    let nl = rest.indexOf('\n');
    while (nl >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        this.counts.lines += 1;
        this.tooLong();
      } else this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
      nl = rest.indexOf('\n');
    }
    if (rest.length > this.limits.lineBytes) {
      this.skipping = true;
      rest = '';
    }
    this.carry = rest;
  }

  private line(text: string): void {
    this.counts.lines += 1;
    if (text.length > this.limits.lineBytes) {
      this.tooLong();
      return;
    }
    const json = this.pattern ? jsonOfStderrLine(text, this.pattern) : text;
    if (json === null) {
      this.counts.other += 1;
      return;
    }
    const read = readActivityLine(json, this.spec);
    if (read.kind === 'other') this.counts.other += 1;
    else if (read.kind === 'malformed') {
      this.counts.malformed += 1;
      this.problem(`line ${this.counts.lines}: ${read.reason}`);
    } else {
      this.counts.entries += 1;
      if (this.kept < this.limits.activityEntries) {
        this.kept += 1;
        this.pending.push({ ...read.entry, line: this.counts.lines });
      } else this.counts.dropped += 1;
    }
  }

  private tooLong(): void {
    this.counts.malformed += 1;
    this.problem(`line ${this.counts.lines}: longer than ${this.limits.lineBytes} characters (record.line-bytes)`);
  }

  private problem(text: string): void {
    if (this.counts.problems.length < PROBLEMS && !this.counts.problems.includes(text)) this.counts.problems.push(text);
  }
}
