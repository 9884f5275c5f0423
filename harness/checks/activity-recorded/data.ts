/** What activity-recorded found, as its check writes it and its diagnosis reads it. */
/**
 * How a write the remote received stood in the server's record when it arrived: `before` (a
 * `started` entry with its key was there), `after` (one came later), `never`, `keyless` (no key
 * to look for), `unknown` (not read then, or the record was cut before its entry could be kept).
 */
export type WriteRecorded = 'before' | 'after' | 'never' | 'keyless' | 'unknown';

export interface ActivityRecordedData {
  source: string;
  writes: Array<{ seq: number; route: string; key: string | null; recorded: WriteRecorded; afterMs?: number }>;
  /** Keys the record started and did not end (result or unresolved) by the closing read. */
  open: string[];
  /** The closing read: the server's exit, or the end of the window when it did not exit. */
  closedAt: 'exit' | 'window-end' | null;
  ended: { result: number; unresolved: number };
  /** Actions left out past record.activity-entries: what is missing may be among them. */
  dropped: number;
  /** The record was cut (actions left out, or bytes left unread past record.activity-bytes): a missing entry cannot fail it. */
  cut: boolean;
  problems: string[];
}
