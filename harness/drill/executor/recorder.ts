import type { ClientEvent } from '../../shared/protocol.js';
import type { RecordLimits } from '../../config/types.js';
import type { CutStream, DrillEvidence, DrillMeta, EvidenceEvent, EvidenceSource, HarnessEvent } from '../../evidence/types.js';
import { monoNow } from '../../util/clock.js';
import { ByteCap, DEFAULT_RECORD_LIMITS, LineCap, maskCutEdges, shortenLine } from './record-cap.js';

type NoiseEvent = Extract<EvidenceEvent, { type: 'stdout-noise' }>;

/**
 * Appends events to one drill's evidence, in the order the harness learns of them. Client
 * events keep the timestamp taken in the client; harness events are stamped here unless the
 * caller knows better (an exit noticed by the observer carries the observer's time).
 *
 * What the server writes outside the protocol is bounded (record-cap.ts): the stdout lines that
 * are not JSON-RPC and the stderr text keep a head and a tail, and finish() appends the tails and
 * a `record-cut` event saying how much was left out.
 */
export class EvidenceRecorder {
  readonly events: EvidenceEvent[] = [];
  private listeners: Array<(event: EvidenceEvent) => void> = [];
  private readonly secrets: string[] = [];
  private readonly lines: Record<'stdout' | 'retry-stdout', LineCap<EvidenceEvent>>;
  private readonly bytes: Record<'stderr' | 'client-stderr', ByteCap>;

  constructor(
    readonly meta: DrillMeta,
    private readonly limits: RecordLimits = DEFAULT_RECORD_LIMITS,
  ) {
    this.lines = { stdout: new LineCap(limits.stdoutLines), 'retry-stdout': new LineCap(limits.stdoutLines) };
    this.bytes = { stderr: new ByteCap(limits.stderrBytes), 'client-stderr': new ByteCap(limits.stderrBytes) };
  }

  client(event: ClientEvent): EvidenceEvent {
    const { t, ...rest } = event;
    return this.push({ seq: 0, t, source: 'client', ...rest } as EvidenceEvent);
  }

  harness(event: HarnessEvent, t = monoNow(), source: EvidenceSource = 'harness'): EvidenceEvent {
    return this.push({ seq: 0, t, source, ...event } as EvidenceEvent);
  }

  /** Values that never enter the evidence in clear (tokens, keys): replaced by `[redacted]` wherever they appear. */
  addSecret(value: string): void {
    if (value.length >= 8 && !this.secrets.includes(value)) this.secrets.push(value);
  }

  onEvent(listener: (event: EvidenceEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Appends the held-back tails and what each bounded stream left out; call once, before `drill-end`. */
  finish(): void {
    for (const stream of ['stdout', 'retry-stdout'] as const) {
      const cap = this.lines[stream];
      for (const held of cap.drain()) this.append(held);
      if (cap.cut) this.append(this.cutEvent(stream, this.limits.stdoutLines, cap.summary));
    }
    for (const stream of ['stderr', 'client-stderr'] as const) {
      const cap = this.bytes[stream];
      const tail = cap.drain();
      if (tail) {
        const text = cap.cut ? maskCutEdges(tail.text, this.secrets, { start: true, end: false }) : tail.text;
        this.append({ seq: 0, t: tail.t, source: 'harness', type: stream === 'stderr' ? 'subject-stderr' : 'client-stderr', text } as EvidenceEvent);
      }
      if (cap.cut) this.append(this.cutEvent(stream, this.limits.stderrBytes, cap.summary));
    }
  }

  evidence(): DrillEvidence {
    return { meta: this.meta, events: this.events };
  }

  private cutEvent(stream: CutStream, limit: number, summary: LineCap<unknown>['summary']): EvidenceEvent {
    return { seq: 0, t: monoNow(), source: 'harness', type: 'record-cut', stream, limit, lineBytes: this.limits.lineBytes, ...summary } as EvidenceEvent;
  }

  private push(raw: EvidenceEvent): EvidenceEvent {
    const event = this.redact(raw);
    const noise = noiseOf(event);
    if (noise) {
      const stream = event.type === 'retry' ? 'retry-stdout' : 'stdout';
      const cap = this.lines[stream];
      const bytes = Buffer.byteLength(noise.line) + (noise.cutBytes ?? 0);
      const short = shortenLine(noise.line, this.limits.lineBytes, this.secrets);
      if (short.cut > 0 || noise.cutBytes) {
        cap.noteShortened();
        // A line the client cut (it ran past unterminated-bytes) was cut before any redaction could see the whole secret.
        noise.line = short.cut > 0 ? short.text : maskCutEdges(short.text, this.secrets, { start: false, end: true });
        noise.cutBytes = (noise.cutBytes ?? 0) + short.cut;
      }
      if (cap.offer(event, bytes, (e) => ({ bytes: Buffer.byteLength(noiseOf(e)?.line ?? ''), t: e.t })) === 'held') return event;
    } else if (event.type === 'subject-stderr' || event.type === 'client-stderr') {
      const cap = this.bytes[event.type === 'subject-stderr' ? 'stderr' : 'client-stderr'];
      const now = cap.offer(event.text, event.t);
      if (now.length === 0) return event;
      if (now.length < event.text.length) event.text = maskCutEdges(now, this.secrets, { start: false, end: true });
    }
    return this.append(event);
  }

  private append(event: EvidenceEvent): EvidenceEvent {
    event.seq = this.events.length;
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

/** The stdout-noise event itself, or the one a retry event wraps. */
function noiseOf(event: EvidenceEvent): NoiseEvent | null {
  if (event.type === 'stdout-noise') return event;
  if (event.type === 'retry' && event.event.type === 'stdout-noise') return event.event as unknown as NoiseEvent;
  return null;
}
