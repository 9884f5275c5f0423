import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { monoNow } from '../util/clock.js';
import type { Journal } from './journal.js';
import type { OutcomeEvent } from './types.js';

export interface RequestIds {
  seq: number;
  drillId?: string;
  sessionId?: string;
}

export interface OutcomeInfo {
  outcome: OutcomeEvent['outcome'];
  reason?: string;
  effectId?: string;
  jobId?: string;
}

/** A request's last step: journal the outcome (always before the first byte), answer or drop, journal the delivery. */
export class Answer {
  private readonly onSocketClose = (): void => {
    this.journal.append({ kind: 'disconnect', t: monoNow(), ...this.ids });
  };

  constructor(
    private readonly journal: Journal,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly ids: RequestIds,
  ) {
    // Until the outcome is decided, a closing connection is evidence: the sender went away.
    req.socket.once('close', this.onSocketClose);
  }

  send(status: number, headers: OutgoingHttpHeaders, body: Buffer, info: OutcomeInfo): Promise<void> {
    this.journalOutcome(status, info);
    if (this.res.destroyed || this.req.socket.destroyed) {
      this.delivery(false, 'client-gone');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let done = false;
      const finish = (delivered: boolean): void => {
        if (done) return;
        done = true;
        this.delivery(delivered, delivered ? undefined : 'client-gone');
        resolve();
      };
      this.res.once('finish', () => finish(true));
      this.res.once('close', () => finish(this.res.writableFinished));
      this.res.writeHead(status, { ...headers, 'content-length': body.length });
      this.res.end(body);
    });
  }

  json(status: number, value: unknown, info: OutcomeInfo, extra: OutgoingHttpHeaders = {}): Promise<void> {
    const body = Buffer.from(JSON.stringify(value));
    return this.send(status, { 'content-type': 'application/json', ...extra }, body, info);
  }

  /** No answer at all: the connection is destroyed (status 0 in the journal). */
  drop(info: OutcomeInfo): Promise<void> {
    this.journalOutcome(0, info);
    this.req.socket.destroy();
    this.delivery(false, info.reason ?? 'dropped');
    return Promise.resolve();
  }

  private journalOutcome(status: number, info: OutcomeInfo): void {
    // From here on the delivery event tells what happened to the connection.
    this.req.socket.off('close', this.onSocketClose);
    this.journal.append({
      kind: 'outcome',
      t: monoNow(),
      ...this.ids,
      outcome: info.outcome,
      status,
      effectId: info.effectId,
      jobId: info.jobId,
      reason: info.reason,
    });
  }

  private delivery(delivered: boolean, reason?: string): void {
    this.journal.append({ kind: 'delivery', t: monoNow(), ...this.ids, delivered, reason });
  }
}
