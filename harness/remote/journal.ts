import type { EventEmitter } from 'node:events';
import type { JournalEvent, JournalFilter } from './types.js';

/** Distributes Omit over the union so each event kind keeps its own fields. */
export type NewEvent = JournalEvent extends infer E ? (E extends JournalEvent ? Omit<E, 'n'> : never) : never;

/** Append-only: a request is a `request` event then later events of its `seq`, so a streamed copy is always as complete. */
export class Journal {
  private readonly events: JournalEvent[] = [];
  private seqCounter = 0;

  constructor(private readonly emitter: EventEmitter) {}

  nextSeq(): number {
    this.seqCounter += 1;
    return this.seqCounter;
  }

  append(event: NewEvent): JournalEvent {
    const full = { ...event, n: this.events.length } as JournalEvent;
    Object.freeze(full);
    this.events.push(full);
    // Synchronous, so a listener sees the event before the remote acts; a listener's throw is
    // rethrown on the next tick, never leaving a request half-journalled.
    try {
      this.emitter.emit('journal', full);
    } catch (err) {
      process.nextTick(() => {
        throw err;
      });
    }
    return full;
  }

  list(filter: JournalFilter = {}): JournalEvent[] {
    return this.events.filter((e) => matchesFilter(e, filter));
  }
}

export function matchesFilter(e: JournalEvent, f: JournalFilter): boolean {
  if (f.drillId !== undefined && e.drillId !== f.drillId) return false;
  if (f.sessionId !== undefined && e.sessionId !== f.sessionId) return false;
  if (f.kind !== undefined) {
    const kinds = Array.isArray(f.kind) ? f.kind : [f.kind];
    if (!kinds.includes(e.kind)) return false;
  }
  if (f.seq !== undefined && !('seq' in e && e.seq === f.seq)) return false;
  if (f.since !== undefined && e.t < f.since) return false;
  return true;
}
