import type { ClientEvent } from '../../shared/protocol.js';
import type { RecordLimits } from '../../config/index.js';
import type { CutStream, DrillEvidence, DrillMeta, EvidenceEvent, EvidenceSource, HarnessEvent } from '../../evidence/types.js';
import { monoNow } from '../../util/clock.js';
import { ByteCap, DEFAULT_RECORD_LIMITS, LineCap, maskCutEdges, shortenLine } from './record-cap.js';
import { MIN_SECRET_LENGTH, redact, type Secret } from '../../util/secrets.js';

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
  private readonly secrets: Secret[] = [];
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

  /**
   * A value that never enters the evidence in clear (a token, a key): replaced wherever it appears
   * by a placeholder naming where it came from (`from`, harness/util/secrets.ts), or `[redacted]`
   * for the drill's own credentials. Token shapes are redacted whether added or not.
   */
  addSecret(value: string, from = ''): void {
    if (value.length >= MIN_SECRET_LENGTH && !this.secrets.some((s) => s.value === value)) this.secrets.push({ value, from });
  }

  /** Every secret added so far, for the observers that read processes (argv, environ, fds). */
  knownSecrets(): readonly Secret[] {
    return this.secrets;
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
    return redactDeep(event, this.secrets) as EvidenceEvent;
  }
}

/** Every string in a value redacted (harness/util/secrets.ts); the value itself when none changes. */
export function redactDeep(value: unknown, secrets: readonly Secret[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) {
    const out = value.map((v) => redactDeep(v, secrets));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = redactDeep(v, secrets);
      if (out[k] !== v) changed = true;
    }
    return changed ? out : value;
  }
  return value;
}

/** The stdout-noise event itself, or the one a retry event wraps. */
function noiseOf(event: EvidenceEvent): NoiseEvent | null {
  if (event.type === 'stdout-noise') return event;
  if (event.type === 'retry' && event.event.type === 'stdout-noise') return event.event as unknown as NoiseEvent;
  return null;
}
