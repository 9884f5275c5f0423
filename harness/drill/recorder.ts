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

  constructor(readonly meta: DrillMeta) {}

  client(event: ClientEvent): EvidenceEvent {
    const { t, ...rest } = event;
    return this.push({ seq: this.events.length, t, source: 'client', ...rest } as EvidenceEvent);
  }

  harness(event: HarnessEvent, t = monoNow(), source: EvidenceSource = 'harness'): EvidenceEvent {
    return this.push({ seq: this.events.length, t, source, ...event } as EvidenceEvent);
  }

  onEvent(listener: (event: EvidenceEvent) => void): void {
    this.listeners.push(listener);
  }

  evidence(): DrillEvidence {
    return { meta: this.meta, events: this.events };
  }

  private push(event: EvidenceEvent): EvidenceEvent {
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
    return event;
  }
}
