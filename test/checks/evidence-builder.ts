/**
 * Synthetic evidence for the pure parts of the harness (checks, judge, reporters). Every event
 * gets an explicit timestamp, so a test states its timeline and the expected numbers follow
 * from it exactly (no clock, no processes).
 */
import { DEFAULT_PROFILE } from '../../harness/client-profiles/profiles.js';
import type { KillMode, KillPoint } from '../../harness/config/index.js';
import type {
  ContainmentRecord,
  DrillEvidence,
  DrillMeta,
  EvidenceEvent,
  EvidenceSource,
  ExpectOptions,
  PointProcess,
  SurvivorRow,
  TrackingInfo,
} from '../../harness/evidence/types.js';

/** The subject server of every synthetic drill: its identity is (pid, start time), as everywhere. */
export const SERVER = { pid: 4242, startTime: 987_654 } as const;
export const CLIENT = { pid: 4200, startTime: 987_600 } as const;

/** An event without the envelope the builder adds (seq, t, source). */
export type EventBody = EvidenceEvent extends infer E ? (E extends unknown ? Omit<E, 'seq' | 't' | 'source'> : never) : never;

export type MetaOverrides = Partial<Omit<DrillMeta, 'expect'>> & { expect?: Partial<ExpectOptions> };

export function makeMeta(overrides: MetaOverrides = {}): DrillMeta {
  const { expect, ...rest } = overrides;
  return {
    drillId: 'cd-20260101T000000-abcdef-0003',
    scenario: 'demo',
    subject: { name: 'well-behaved', command: 'node', args: ['dist/fake-servers/well-behaved.js'] },
    point: 'idle',
    mode: 'crash',
    correlationId: 'cd-20260101T000000-abcdef-0003:write',
    clientProfile: DEFAULT_PROFILE,
    ...rest,
    expect: {
      exitOnEof: { deadline: 1000 },
      noSurvivors: { grace: 500 },
      stdoutClean: true,
      idempotentEffects: false,
      deniedAfterRevocation: false,
      quietAfterLoss: false,
      jobsSettled: null,
      silentAfterCancel: null,
      stopsAfterCancel: null,
      aliveAfterCancel: null,
      ...expect,
    },
  };
}

export function survivor(overrides: Partial<SurvivorRow> = {}): SurvivorRow {
  return {
    pid: 5001,
    startTime: 990_000,
    ppid: 1,
    pgid: 4242,
    sid: 4100,
    state: 'S',
    elapsedMs: 800,
    cmdline: ['node', 'leak.js'],
    fds: [],
    tcp: [],
    unix: [],
    credential: { present: false, vars: [] },
    foundBy: ['env-marker'],
    ...overrides,
  };
}

export function containmentRecord(overrides: Partial<ContainmentRecord> = {}): ContainmentRecord {
  return {
    pid: 5001,
    startTime: 990_000,
    cmdline: ['node', 'leak.js'],
    endedBy: 'SIGTERM',
    forced: false,
    steps: [{ t: 2000, kind: 'signal', target: { pid: 5001, startTime: 990_000 }, signal: 'SIGTERM', result: 'sent' }],
    ...overrides,
  };
}

export class EvidenceBuilder {
  readonly meta: DrillMeta;
  private readonly events: EvidenceEvent[] = [];

  constructor(overrides: MetaOverrides = {}) {
    this.meta = makeMeta(overrides);
  }

  /** Any event, for the cases the named helpers below do not cover. */
  add(t: number, body: EventBody, source: EvidenceSource = 'harness'): this {
    this.events.push({ seq: this.events.length, t, source, ...body } as EvidenceEvent);
    return this;
  }

  start(t = 1000): this {
    return this.add(t, { type: 'drill-start', meta: this.meta });
  }

  spawned(t = 1010, id: { pid: number; startTime: number | null } = SERVER): this {
    return this.add(t, { type: 'subject-spawned', pid: id.pid, startTime: id.startTime }, 'client');
  }

  handshake(t = 1100, serverName: string | null = 'well-behaved', serverVersion: string | null = '1.0.0', protocolVersion: string | null = '2025-11-25'): this {
    return this.add(t, { type: 'handshake', serverName, serverVersion, protocolVersion }, 'client');
  }

  tracking(t: number, tracking: TrackingInfo): this {
    return this.add(t, { type: 'tracking', tracking });
  }

  rpcIn(t: number, message: unknown = { jsonrpc: '2.0', id: 1, result: {} }): this {
    return this.add(t, { type: 'rpc-in', message }, 'client');
  }

  /** The client's request and the server's answer at `t` (a result, or `error`): `tools/list` shows the server serving (evidence/serving.ts). */
  answered(t: number, method = 'tools/list', id: number | string = `${method}-${t}`, answer: 'result' | 'error' | 'none' = 'result'): this {
    this.add(t, { type: 'rpc-out', message: { jsonrpc: '2.0', id, method, params: {} } }, 'client');
    if (answer === 'none') return this;
    return this.rpcIn(
      t,
      answer === 'result' ? { jsonrpc: '2.0', id, result: {} } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } },
    );
  }

  stdoutNoise(t: number, line: string): this {
    return this.add(t, { type: 'stdout-noise', line }, 'client');
  }

  stderr(t: number, text: string): this {
    return this.add(t, { type: 'subject-stderr', text });
  }

  pointReached(t: number, point: KillPoint = this.meta.point, detail = 'reached', process?: PointProcess): this {
    return this.add(t, { type: 'point-reached', point, detail, ...(process ? { process } : {}) });
  }

  pointTimeout(t: number, point: KillPoint, timeoutMs: number, reason: string): this {
    return this.add(t, { type: 'point-timeout', point, timeoutMs, reason });
  }

  clientLost(t: number, mode: KillMode = this.meta.mode, how = 'SIGKILL sent to the client'): this {
    return this.add(t, { type: 'client-lost', mode, how });
  }

  serverExit(
    t: number,
    exit: { code?: number | null; signal?: string | null; pid?: number; startTime?: number; observedBy?: 'client' | 'observer' } = {},
  ): this {
    return this.add(
      t,
      {
        type: 'server-exit',
        pid: exit.pid ?? SERVER.pid,
        startTime: exit.startTime ?? SERVER.startTime,
        code: exit.code === undefined ? 0 : exit.code,
        signal: exit.signal ?? null,
        observedBy: exit.observedBy ?? 'observer',
      },
      'observer',
    );
  }

  subjectExit(t: number, code: number | null, signal: string | null = null): this {
    return this.add(t, { type: 'subject-exit', code, signal }, 'client');
  }

  /** A step of the client's stop sequence (the TypeScript SDK's: close stdin, then signal the server). */
  stopStep(t: number, what: 'close-stdin' | 'SIGTERM' | 'SIGKILL'): this {
    const index = this.events.filter((e) => e.type === 'stop-step').length;
    if (what === 'close-stdin') return this.add(t, { type: 'stop-step', index, step: { kind: 'close-stdin', onlyIfAlive: null }, result: 'done' }, 'client');
    const step = { kind: 'signal', name: what, to: 'child', onlyIfAlive: 'child' } as const;
    return this.add(t, { type: 'stop-step', index, step, result: 'sent', targets: [{ ...SERVER, result: 'sent' }] }, 'client');
  }

  signal(t: number, s: { signal?: string; pid?: number; startTime?: number; by?: 'harness' | 'client'; result?: string } = {}): this {
    return this.add(t, {
      type: 'signal',
      pid: s.pid ?? SERVER.pid,
      startTime: s.startTime ?? SERVER.startTime,
      signal: s.signal ?? 'SIGTERM',
      by: s.by ?? 'harness',
      result: s.result ?? 'sent',
    });
  }

  snapshot(t: number, survivors: SurvivorRow[] = [], opts: { label?: 'grace-end' | 'hang-window'; early?: boolean } = {}): this {
    return this.add(t, { type: 'snapshot', label: opts.label ?? 'grace-end', early: opts.early ?? false, survivors }, 'observer');
  }

  containment(t: number, records: ContainmentRecord[]): this {
    return this.add(t, { type: 'containment', records });
  }

  harnessError(t: number, phase: string, message: string): this {
    return this.add(t, { type: 'harness-error', phase, message });
  }

  end(t: number): this {
    return this.add(t, { type: 'drill-end' });
  }

  build(): DrillEvidence {
    return { meta: this.meta, events: [...this.events] };
  }
}

/**
 * A drill that went as a well-behaved server should: client killed at 1200, the server exits
 * 50 ms later with code 0, nothing survives the grace period, stdout carried only JSON-RPC.
 */
export function passingDrill(overrides: MetaOverrides = {}): EvidenceBuilder {
  return new EvidenceBuilder(overrides)
    .start(1000)
    .spawned(1010)
    .handshake(1100)
    .rpcIn(1100)
    .rpcIn(1150, { jsonrpc: '2.0', id: 2, result: { tools: [] } })
    .pointReached(1200)
    .clientLost(1200)
    .serverExit(1250, { code: 0 })
    .snapshot(1700, [])
    .end(1800);
}
