/**
 * What a server can make us record is bounded: a flooding server (a misconfigured logger that
 * prints a gigabyte) must not exhaust the runner's memory or disk and take the run down with it.
 *
 * Two kinds of stream, each cut to a head and a tail with the middle counted, not kept:
 * - line streams (the server's stdout lines that are not JSON-RPC): the first `lines / 2` and
 *   the last `lines / 2` lines are kept, each at most `lineBytes` long;
 * - byte streams (the server's stderr): the first and the last `bytes / 2` characters are kept.
 * What was dropped is recorded as evidence (`record-cut`: lines and bytes, and when the first
 * and last dropped ones were read), so a check still counts what it judges.
 *
 * Secrets are redacted before anything is cut, and a secret's prefix or suffix left at a cut
 * edge is masked too: a cut must never leave part of a token in the record.
 */
import type { HarnessEvent } from '../../evidence/types.js';
import { placeholder, type Secret } from '../../util/secrets.js';

export { DEFAULT_RECORD_LIMITS } from '../../config/index.js';

/** The least of a secret that is masked at a cut edge (shorter fragments say nothing of it). */
const MIN_FRAGMENT = 4;

/** What a stream saw and left out: the counts of its `record-cut` event (harness/evidence/types.ts). */
export type CutSummary = Omit<Extract<HarnessEvent, { type: 'record-cut' }>, 'type' | 'stream' | 'limit' | 'lineBytes'>;

/** A token shape's opening left at the end of a cut (`...ghp_01234`), too short for the whole shape to match. */
const SHAPE_OPENING_AT_END = /\b(?:gh[pousr]_|github_pat_|sk-|xox[abposr]-|AKIA|ASIA|AIza|glpat-|npm_|eyJ|-----BEGIN [A-Z ]*PRIVATE)[A-Za-z0-9_.\- ]*$/;

/** Masks, at the end of `text` (and at its start when `atStart`), any fragment of a secret a cut left there. */
export function maskCutEdges(text: string, secrets: readonly Secret[], edges: { start: boolean; end: boolean }): string {
  let out = text;
  for (const { value: secret, from } of secrets) {
    if (edges.end) {
      for (let n = Math.min(secret.length - 1, out.length); n >= MIN_FRAGMENT; n--) {
        if (out.endsWith(secret.slice(0, n))) {
          out = `${out.slice(0, out.length - n)}${placeholder(from)}`;
          break;
        }
      }
    }
    if (edges.start) {
      for (let n = Math.min(secret.length - 1, out.length); n >= MIN_FRAGMENT; n--) {
        if (out.startsWith(secret.slice(secret.length - n))) {
          out = `${placeholder(from)}${out.slice(n)}`;
          break;
        }
      }
    }
  }
  if (edges.end) out = out.replace(SHAPE_OPENING_AT_END, placeholder('cut'));
  return out;
}

/** Cuts one line to `max` characters, saying how much was left out. */
export function shortenLine(line: string, max: number, secrets: readonly Secret[]): { text: string; cut: number } {
  if (line.length <= max) return { text: line, cut: 0 };
  const kept = maskCutEdges(line.slice(0, max), secrets, { start: false, end: true });
  return { text: kept, cut: Buffer.byteLength(line) - Buffer.byteLength(line.slice(0, max)) };
}

/** A line stream: head kept in place, the tail held back in a ring until the end, the middle counted. */
export class LineCap<T> {
  private kept = 0;
  private readonly ring: T[] = [];
  readonly summary: CutSummary = { total: 0, totalBytes: 0, droppedLines: 0, droppedBytes: 0, shortenedLines: 0, firstDroppedAt: null, lastDroppedAt: null };

  constructor(private readonly limit: number) {}

  /** 'keep': record it now; 'held': in the tail ring (maybe dropped later). Pushing out of the ring counts as dropped. */
  offer(item: T, bytes: number, sizeOf: (item: T) => { bytes: number; t: number }): 'keep' | 'held' {
    this.summary.total++;
    this.summary.totalBytes += bytes;
    const head = Math.ceil(this.limit / 2);
    if (this.kept < head) {
      this.kept++;
      return 'keep';
    }
    const tail = this.limit - head;
    this.ring.push(item);
    if (this.ring.length > tail) {
      const out = this.ring.shift() as T;
      const size = sizeOf(out);
      this.drop(size.bytes, size.t);
    }
    return 'held';
  }

  noteShortened(): void {
    this.summary.shortenedLines++;
  }

  /** The tail, in order; the ring is emptied. */
  drain(): T[] {
    return this.ring.splice(0, this.ring.length);
  }

  get cut(): boolean {
    return this.summary.droppedLines > 0 || this.summary.shortenedLines > 0;
  }

  private drop(bytes: number, t: number): void {
    this.summary.droppedLines++;
    this.summary.droppedBytes += bytes;
    this.summary.firstDroppedAt ??= t;
    this.summary.lastDroppedAt = t;
  }
}

/** A byte stream (stderr): the first `limit / 2` characters kept as they come, the last `limit / 2` held back. */
export class ByteCap {
  private headLeft: number;
  private tail = '';
  private tailT = 0;
  readonly summary: CutSummary = { total: 0, totalBytes: 0, droppedLines: 0, droppedBytes: 0, shortenedLines: 0, firstDroppedAt: null, lastDroppedAt: null };

  constructor(private readonly limit: number) {
    this.headLeft = Math.ceil(limit / 2);
  }

  /** The part of this chunk to record now (possibly empty); the rest goes to the tail. */
  offer(text: string, t: number): string {
    this.summary.total++;
    this.summary.totalBytes += Buffer.byteLength(text);
    const now = text.slice(0, this.headLeft);
    this.headLeft -= now.length;
    const rest = text.slice(now.length);
    if (rest.length > 0) {
      this.tail += rest;
      this.tailT = t;
      const room = this.limit - Math.ceil(this.limit / 2);
      if (this.tail.length > room) {
        const out = this.tail.slice(0, this.tail.length - room);
        this.tail = this.tail.slice(out.length);
        this.summary.droppedBytes += Buffer.byteLength(out);
        this.summary.firstDroppedAt ??= t;
        this.summary.lastDroppedAt = t;
      }
    }
    return now;
  }

  /** The held-back tail and the time its last part was read; emptied. */
  drain(): { text: string; t: number } | null {
    if (this.tail.length === 0) return null;
    const out = { text: this.tail, t: this.tailT };
    this.tail = '';
    return out;
  }

  get cut(): boolean {
    return this.summary.droppedBytes > 0;
  }
}
