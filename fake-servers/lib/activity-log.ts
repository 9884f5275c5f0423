/**
 * A fake server's own activity record: one JSON object a line, appended to the file the harness
 * names in CRASH_DRILL_ACTIVITY_FILE (docs/remote.md, "The server's own activity record"). The policy is
 * the fake's one behaviour for `activity-recorded`:
 * - `before-send`: `started` before the request leaves, `result` when its answer comes,
 *   `unresolved` when the request failed after it may have been sent (the answer was lost), and
 *   at shutdown for every action still open once the work in flight had its deadline;
 * - `after-answer`: `started` and `result` together, once the answer came (records-after-answer);
 * - `started-only`: `started` before the request, and nothing after it (never-ends-actions).
 * appendFileSync: the line is in the file when the call returns, before the request is sent.
 *
 * With FAKE_ACTIVITY_TO=stderr it logs its own way instead, as a server with a logger of its own
 * does: `audit: {"ts", "request_id", "event": "begin" | "end" | "abandoned", "op"}` lines on
 * stderr, written with writeSync (a scenario names the pattern, field names and phases in
 * subject.activity).
 */
import { appendFileSync, writeSync } from 'node:fs';
import type { RemoteAnswer } from './remote-http.js';

export type ActivityPolicy = 'before-send' | 'after-answer' | 'started-only';

/** An external action: its key (the request's Idempotency-Key), what it does and to what. */
export interface Action {
  key: string;
  operation: string;
  target: string;
}

export class ActivityLog {
  private readonly open = new Map<string, Action>();

  constructor(
    private readonly policy: ActivityPolicy | undefined,
    private readonly file = process.env.CRASH_DRILL_ACTIVITY_FILE,
    private readonly toStderr = process.env.FAKE_ACTIVITY_TO === 'stderr',
  ) {}

  /** Sends the request with `send` (which starts it before it returns), recording around it as the policy says. */
  around(action: Action, send: () => Promise<RemoteAnswer>): Promise<RemoteAnswer> {
    if (this.policy === 'before-send' || this.policy === 'started-only') this.append(action, 'started');
    const pending = send();
    this.open.set(action.key, action);
    pending.then(
      (answer) => this.ended(action, 'result', answer),
      () => this.ended(action, 'unresolved'),
    );
    return pending;
  }

  /** At shutdown, after the deadline given to the work in flight: what is still open is unresolved. */
  closeOpen(): void {
    if (this.policy !== 'before-send') return;
    for (const action of this.open.values()) this.append(action, 'unresolved');
    this.open.clear();
  }

  private ended(action: Action, phase: 'result' | 'unresolved', answer?: RemoteAnswer): void {
    if (!this.open.delete(action.key)) return;
    const remoteId = (answer?.body as { id?: unknown } | null | undefined)?.id;
    const extra: Record<string, string> = typeof remoteId === 'string' ? { remoteId } : {};
    if (this.policy === 'before-send') this.append(action, phase, extra);
    else if (this.policy === 'after-answer') {
      this.append(action, 'started');
      this.append(action, phase, extra);
    }
  }

  private append(action: Action, phase: 'started' | 'result' | 'unresolved', extra: Record<string, string> = {}): void {
    if (this.toStderr) {
      const event = { started: 'begin', result: 'end', unresolved: 'abandoned' }[phase];
      try {
        writeSync(2, `audit: ${JSON.stringify({ ts: Date.now(), request_id: action.key, event, op: action.operation })}\n`);
      } catch {
        // stderr has no reader any more: nothing to record into.
      }
      return;
    }
    if (!this.file) return;
    const line = JSON.stringify({ t: new Date().toISOString(), key: action.key, phase, operation: action.operation, target: action.target, ...extra });
    try {
      appendFileSync(this.file, `${line}\n`);
    } catch {
      // The record's folder is gone (the harness ended the drill): nothing to record into.
    }
  }
}
