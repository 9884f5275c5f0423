/**
 * The drill's events as timeline entries, each in a lane. Message contents, stderr text and
 * request bodies are left out (an RPC shows its method only), so nothing here can carry a token.
 */
import { describeStep } from '../../harness/results/constants.js';
import type { ContainmentStep } from '../types.js';
import type { LogEvent } from './evidence-file.js';

export const LANES = ['client', 'kill', 'server', 'survivors', 'containment', 'revocation', 'remote', 'retry', 'harness'] as const;
export type Lane = (typeof LANES)[number];

export interface TimelineEntry {
  ms: number;
  lane: Lane;
  what: string;
  /** A moment worth a line across every lane: the kill, the server's exit, the revocation. */
  major?: 'kill' | 'exit' | 'revoked';
}

type Describe = (e: LogEvent) => string;

const CLIENT: Record<string, Describe> = {
  'client-spawned': (e) => `client started (pid ${num(e.pid)})`,
  'client-ready': () => 'client ready',
  handshake: (e) => `initialize done: ${str(e.serverName) || 'server'} ${str(e.serverVersion)} (${str(e.protocolVersion)})`,
  'setup-done': (e) => `setup done (${num(e.steps)} steps)`,
  'setup-error': (e) => `setup step ${num(e.step)} (${str(e.call)}) failed: ${str(e.message)}`,
  'handshake-error': (e) => `handshake failed: ${str(e.message)}`,
  'spawn-error': (e) => `the server could not be started: ${str(e.message)}`,
  'before-dispatch': (e) => `target call built (id ${str(e.requestId)})`,
  dispatched: (e) => `target call written (id ${str(e.requestId)})`,
  response: (e) => `tool result received${e.isError ? ' (isError)' : ''}`,
  'call-error': (e) => `call failed: ${str(e.message)}`,
  'subject-exit': (e) => `client saw the server exit (${exitText(e)})`,
  'client-error': (e) => `client error: ${str(e.message)}`,
};

function num(v: unknown): string {
  return typeof v === 'number' ? String(v) : '?';
}
function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}
function exitText(e: LogEvent): string {
  return e.signal ? `signal ${str(e.signal)}` : `code ${str(e.code)}`;
}
function cmd(v: unknown): string {
  return Array.isArray(v) ? v.join(' ') : '';
}

/** What the remote journalled, in one line; deliveries that arrived are left out as noise. */
function remoteEntry(entry: Record<string, unknown>): { lane: Lane; what: string } | null {
  const seq = entry.seq !== undefined ? `#${str(entry.seq)} ` : '';
  switch (entry.kind) {
    case 'request': {
      const proc = entry.process as { pid?: number } | undefined;
      const key = entry.idempotencyKey ? ', keyed' : '';
      return { lane: 'remote', what: `${seq}${str(entry.route)} (${str(entry.credential)}${key}${proc?.pid ? `, pid ${proc.pid}` : ''})` };
    }
    case 'outcome':
      return { lane: 'remote', what: `${seq}-> ${str(entry.outcome)} ${str(entry.status)}${entry.reason ? ` (${str(entry.reason)})` : ''}` };
    case 'commit':
      return { lane: 'remote', what: `${seq}effect ${str(entry.effectId)} ${entry.replayed ? 'replayed' : 'committed'}` };
    case 'hold':
      return { lane: 'remote', what: `${seq}held at ${str(entry.point)}` };
    case 'release':
      return { lane: 'remote', what: `${seq}released (${str(entry.action)})` };
    case 'disconnect':
      return { lane: 'remote', what: `${seq}the caller disconnected` };
    case 'delivery':
      return entry.delivered === false ? { lane: 'remote', what: `${seq}the answer could not be delivered` } : null;
    case 'job':
      return { lane: 'remote', what: `job ${str(entry.jobId)} ${str(entry.status)}` };
    case 'session-opened':
      return { lane: 'revocation', what: `session ${str(entry.sessionId)} opened` };
    case 'api-key-rotated':
      return { lane: 'revocation', what: 'the long-lived API key was rotated (remote)' };
    default:
      return null; // 'revoked' is shown from the harness's own event
  }
}

function entryOf(e: LogEvent, subjectPid: number | null): Omit<TimelineEntry, 'ms'> | null {
  const client = CLIENT[e.type];
  if (client && e.type !== 'subject-exit') return { lane: 'client', what: client(e) };
  switch (e.type) {
    case 'subject-exit':
      return { lane: 'client', what: CLIENT['subject-exit'](e) };
    case 'subject-spawned':
      return { lane: 'server', what: `server started (pid ${num(e.pid)})` };
    case 'stdout-noise':
      return { lane: 'server', what: 'a non-JSON-RPC line on stdout' };
    case 'activity': {
      // What the server's own record held new at this read: phase and key, nothing else.
      const entries = Array.isArray(e.entries) ? (e.entries as Array<{ key?: unknown; phase?: unknown }>) : [];
      if (entries.length === 0) return null;
      const shown = entries.slice(0, 5).map((x) => `${str(x.phase)} ${str(x.key)}`);
      const more = entries.length > 5 ? `, and ${entries.length - 5} more` : '';
      return { lane: 'server', what: `the server's own record (read at ${str(e.read)}): ${shown.join(', ')}${more}` };
    }
    case 'record-cut':
      return { lane: 'server', what: `the record of ${str(e.stream)} was cut: ${num(e.droppedLines)} lines, ${num(e.droppedBytes)} bytes left out` };
    case 'rpc-out':
    case 'rpc-in': {
      const m = e.message as { method?: string; id?: unknown; result?: unknown; error?: unknown } | undefined;
      if (!m?.method || m.method.startsWith('notifications/initialized')) return null;
      return { lane: 'client', what: `${e.type === 'rpc-out' ? '->' : '<-'} ${m.method}${m.id !== undefined ? ` (id ${str(m.id)})` : ''}` };
    }
    case 'point-reached':
      return { lane: 'kill', what: `point ${str(e.point)} reached: ${str(e.detail)}` };
    case 'point-timeout':
      return { lane: 'kill', what: `point ${str(e.point)} not reached within ${num(e.timeoutMs)} ms: ${str(e.reason)}` };
    case 'kill':
      return { lane: 'kill', what: `kill (${str(e.mode)}${e.signal ? `, ${str(e.signal)}` : ''}): ${str(e.result)}`, major: 'kill' };
    case 'client-lost':
      return { lane: 'kill', what: `client lost: ${str(e.how)}` };
    case 'server-exit':
      return { lane: 'server', what: `server exited (${exitText(e)}, seen by the ${str(e.observedBy)})`, major: 'exit' };
    case 'process-new':
      return e.pid === subjectPid ? null : { lane: 'server', what: `new process ${num(e.pid)} (ppid ${num(e.ppid)}): ${cmd(e.cmdline)}` };
    case 'process-exit':
      return { lane: 'server', what: `process ${num(e.pid)} exited` };
    case 'snapshot': {
      const survivors = Array.isArray(e.survivors) ? (e.survivors as Array<{ pid: number }>) : [];
      const who = survivors.length ? `: pid ${survivors.map((s) => s.pid).join(', ')}` : '';
      return { lane: 'survivors', what: `${str(e.label)}: ${survivors.length} survivor${survivors.length === 1 ? '' : 's'}${who}` };
    }
    case 'containment-start':
      return { lane: 'containment', what: 'containment starts' };
    case 'signal':
      return { lane: 'containment', what: `${str(e.signal)} to ${num(e.pid)} by the ${str(e.by)}: ${str(e.result)}` };
    case 'session':
      return { lane: 'revocation', what: `${str(e.role)} session ${str(e.sessionId)}` };
    case 'revoked':
      return { lane: 'revocation', what: `session ${str(e.sessionId)} revoked by ${str(e.operator)}`, major: 'revoked' };
    case 'probe':
      return { lane: 'revocation', what: `probe with the revoked token: HTTP ${num(e.status)} (${e.denied ? 'denied' : 'NOT denied'})` };
    case 'api-key-rotated':
      return { lane: 'revocation', what: 'the long-lived API key was rotated' };
    case 'remote-state': {
      const jobs = Array.isArray(e.jobs) ? e.jobs.length : 0;
      const effects = Array.isArray(e.effects) ? e.effects.length : 0;
      return { lane: 'remote', what: `remote state (${str(e.label)}): ${effects} effect${effects === 1 ? '' : 's'}, ${jobs} job${jobs === 1 ? '' : 's'}` };
    }
    case 'remote':
      return remoteEntry((e.entry ?? {}) as Record<string, unknown>);
    case 'retry': {
      const inner = (e.event ?? {}) as LogEvent;
      const describe = CLIENT[inner.type];
      if (inner.type === 'subject-spawned') return { lane: 'retry', what: `retry: server started (pid ${num(inner.pid)})` };
      return describe ? { lane: 'retry', what: `retry: ${describe(inner)}` } : null;
    }
    case 'retry-end':
      return { lane: 'retry', what: `retry ${e.ok ? 'done' : 'failed'}: ${str(e.detail)}` };
    case 'harness-error':
      return { lane: 'harness', what: `harness error (${str(e.phase)}): ${str(e.message)}` };
    case 'drill-start':
      return { lane: 'harness', what: 'drill starts' };
    case 'drill-end':
      return { lane: 'harness', what: 'drill ends' };
    default:
      return null;
  }
}

/** The timeline of one drill: its events, plus each containment step (they carry their own t). */
export function timelineEntries(events: LogEvent[]): TimelineEntry[] {
  if (events.length === 0) return [];
  const t0 = events[0].t;
  const ms = (t: number) => Math.round((t - t0) * 10) / 10;
  const spawned = events.find((e) => e.type === 'subject-spawned');
  const subjectPid = typeof spawned?.pid === 'number' ? spawned.pid : null;
  const out: TimelineEntry[] = [];
  for (const e of events) {
    if (e.type === 'containment') {
      for (const record of (e.records ?? []) as Array<{ pid: number; steps: ContainmentStep[] }>) {
        for (const step of record.steps ?? []) out.push({ ms: ms(step.t), lane: 'containment', what: `pid ${record.pid}: ${describeStep(step)}` });
      }
      continue;
    }
    const entry = entryOf(e, subjectPid);
    if (!entry) continue;
    // Remote journal entries carry the remote's own monotonic time: the precise moment.
    const entryT = e.type === 'remote' ? (e.entry as { t?: unknown } | undefined)?.t : undefined;
    out.push({ ms: ms(typeof entryT === 'number' ? entryT : e.t), ...entry });
  }
  return out.sort((a, b) => a.ms - b.ms);
}
