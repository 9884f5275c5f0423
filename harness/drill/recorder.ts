import type { ClientEvent } from '../client/protocol.js';
import type { DrillEvidence, DrillMeta, EvidenceEvent, EvidenceSource, HarnessEvent } from '../evidence/types.js';
import { monoNow } from '../util/clock.js';

/**
 * Appends events to one drill's evidence, in the order the harness learns of them. Client
 * events keep the timestamp taken in the client; harness events are stamped here unless the
 * caller knows better (an exit noticed by the observer carries the observer's time).
 */
export class EvidenceRecorder {
  readonly events: EvidenceEvent[] = [];
  private listeners: Array<(event: EvidenceEvent) => void> = [];
  private readonly secrets: string[] = [];

  constructor(readonly meta: DrillMeta) {}

  client(event: ClientEvent): EvidenceEvent {
    const { t, ...rest } = event;
    return this.push({ seq: this.events.length, t, source: 'client', ...rest } as EvidenceEvent);
  }

  harness(event: HarnessEvent, t = monoNow(), source: EvidenceSource = 'harness'): EvidenceEvent {
    return this.push({ seq: this.events.length, t, source, ...event } as EvidenceEvent);
  }

  /** Values that never enter the evidence in clear (tokens, keys): replaced by `[redacted]` wherever they appear. */
  addSecret(value: string): void {
    if (value.length >= 8 && !this.secrets.includes(value)) this.secrets.push(value);
  }

  onEvent(listener: (event: EvidenceEvent) => void): void {
    this.listeners.push(listener);
  }

  evidence(): DrillEvidence {
    return { meta: this.meta, events: this.events };
  }

  private push(raw: EvidenceEvent): EvidenceEvent {
    const event = this.redact(raw);
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }

  private redact(event: EvidenceEvent): EvidenceEvent {
    if (this.secrets.length === 0) return event;
    const text = JSON.stringify(event);
    if (!this.secrets.some((secret) => text.includes(secret))) return event;
    let clean = text;
    for (const secret of this.secrets) clean = clean.split(secret).join('[redacted]');
    return JSON.parse(clean) as EvidenceEvent;
  }
}
