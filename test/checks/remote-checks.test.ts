/**
 * The four checks over the drill remote's journal, each proven both ways on synthetic evidence:
 * idempotent-effects, denied-after-revocation, quiet-after-loss, jobs-settled.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../harness/checks/all-checks.js';
import { deniedAfterRevocation } from '../../harness/checks/denied-after-revocation/check.js';
import { idempotentEffects } from '../../harness/checks/idempotent-effects/check.js';
import { jobsSettled } from '../../harness/checks/jobs-settled/check.js';
import { quietAfterLoss } from '../../harness/checks/quiet-after-loss/check.js';
import type { RemoteEffect, RemoteJob } from '../../harness/evidence/types.js';
import type { JournalEvent } from '../../harness/remote/types.js';
import { EvidenceBuilder, type MetaOverrides } from './evidence-builder.js';

const CORR = 'cd-20260101T000000-abcdef-0003:write';
const HARNESS_PID = 777;
let seq = 0;
let n = 0;

type Req = {
  t: number;
  method?: string;
  path?: string;
  write?: boolean;
  key?: string;
  corr?: string;
  session?: string;
  credential?: 'session' | 'api-key';
  pid?: number;
  outcome?: 'committed' | 'replayed' | 'denied' | 'ok';
  status?: number;
  /** The handler committed it under a name it chose (commit(..., { key })). */
  byName?: boolean;
};

/** One request as the remote journals it: the request event, then its outcome. */
function request(b: EvidenceBuilder, r: Req): EvidenceBuilder {
  const s = seq++;
  const request: JournalEvent = {
    kind: 'request',
    n: n++,
    t: r.t,
    seq: s,
    drillId: 'd',
    sessionId: r.session ?? 's1',
    credential: r.credential ?? 'session',
    method: r.method ?? 'POST',
    path: r.path ?? '/actions',
    route: `${r.method ?? 'POST'} ${r.path ?? '/actions'}`,
    write: r.write ?? true,
    idempotencyKey: r.key,
    correlationId: r.corr ?? r.key,
    process: { pid: r.pid ?? 4242, startTime: 1 },
    attribution: 'candidate',
  };
  const outcome: JournalEvent = { kind: 'outcome', n: n++, t: r.t + 1, seq: s, drillId: 'd', outcome: r.outcome ?? 'committed', status: r.status ?? 201 };
  b.add(r.t, { type: 'remote', entry: request }, 'remote');
  if (r.byName) {
    const commit: JournalEvent = {
      kind: 'commit',
      n: n++,
      t: r.t,
      seq: s,
      drillId: 'd',
      effectId: 'eff_1',
      replayed: r.outcome === 'replayed',
      keyedBy: 'name',
    };
    b.add(r.t, { type: 'remote', entry: commit }, 'remote');
  }
  return b.add(r.t + 1, { type: 'remote', entry: outcome }, 'remote');
}

function effect(id: string, overrides: Partial<RemoteEffect> = {}): RemoteEffect {
  return { id, kind: 'action', sessionId: 's1', op: 'deploy', operation: 'op-web', idempotencyKey: CORR, seq: 0, t: 1300, replays: 0, ...overrides };
}

function job(id: string, status: RemoteJob['status']): RemoteJob {
  return { id, sessionId: 's1', status, createdT: 1100, settledT: status === 'running' ? null : 1400 };
}

/** A drill whose client was lost at 1200 and whose session was revoked at 1210 and probed. */
function lostDrill(overrides: MetaOverrides = {}, probeStatus = 401): EvidenceBuilder {
  return new EvidenceBuilder(overrides)
    .start(1000)
    .add(1001, { type: 'session', role: 'drill', sessionId: 's1' })
    .spawned(1010)
    .clientLost(1200)
    .add(1210, { type: 'revoked', sessionId: 's1', operator: 'harness' })
    .add(1215, { type: 'probe', status: probeStatus, denied: probeStatus === 401, pid: HARNESS_PID });
}

describe('idempotent-effects', () => {
  const on = { expect: { idempotentEffects: true } };

  it('passes with one effect for a keyed write and its keyed retry (a replay)', () => {
    const b = request(lostDrill(on), { t: 1100, key: CORR });
    b.add(1500, { type: 'session', role: 'retry', sessionId: 's2' });
    request(b, { t: 1600, key: CORR, session: 's2', outcome: 'replayed', status: 200 });
    b.add(1700, { type: 'retry-end', ok: true, detail: 'answered' }).add(1800, {
      type: 'remote-state',
      label: 'final',
      jobs: [],
      effects: [effect('act_1', { replays: 1 })],
    });
    const result = idempotentEffects.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('1 effect for 2 keyed writes after the recovery retry, none duplicated');
  });

  it('passes a write with no Idempotency-Key whose handler committed it under a name, and says so', () => {
    const b = request(lostDrill(on), { t: 1100, byName: true });
    b.add(1500, { type: 'session', role: 'retry', sessionId: 's2' });
    request(b, { t: 1600, session: 's2', byName: true, outcome: 'replayed', status: 409 });
    b.add(1700, { type: 'retry-end', ok: true, detail: 'answered' }).add(1800, {
      type: 'remote-state',
      label: 'final',
      jobs: [],
      effects: [effect('eff_1', { idempotencyKey: 'name:0123456789ab', keyedBy: 'name', replays: 1 })],
    });
    const result = idempotentEffects.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('1 effect for 2 keyed writes, keyed by name, after the recovery retry, none duplicated');
    expect(result.data.keyedByName).toBe(2);
  });

  it('still fails a write with neither key beside one keyed by name', () => {
    const b = request(lostDrill(on), { t: 1100, byName: true });
    request(b, { t: 1150 });
    b.add(1800, {
      type: 'remote-state',
      label: 'final',
      jobs: [],
      effects: [effect('eff_1', { keyedBy: 'name' }), effect('eff_2', { idempotencyKey: null, operation: 'op-other' })],
    });
    const result = idempotentEffects.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('1 of 2 writes carried no Idempotency-Key (first: POST /actions)');
  });

  it('fails on a keyless write, naming it', () => {
    const b = request(lostDrill(on), { t: 1100 });
    b.add(1800, { type: 'remote-state', label: 'final', jobs: [], effects: [effect('act_1', { idempotencyKey: null })] });
    const result = idempotentEffects.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('1 of 1 writes carried no Idempotency-Key (first: POST /actions)');
  });

  it('fails on the same operation taking effect twice, listing the duplicate effects', () => {
    const b = request(lostDrill(on), { t: 1100, key: CORR });
    request(b, { t: 1150 });
    b.add(1800, { type: 'remote-state', label: 'final', jobs: [], effects: [effect('act_1'), effect('act_2', { idempotencyKey: null })] });
    const result = idempotentEffects.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(
      '1 operation took effect more than once: act_1 and act_2 (deploy); 1 of 2 writes carried no Idempotency-Key (first: POST /actions)',
    );
    expect(result.data.duplicates).toEqual([['act_1', 'act_2']]);
  });

  it('does not count two keyed effects of the same op and target with different keys as duplicates (two operations)', () => {
    const b = request(lostDrill(on), { t: 1100, key: 'k1' });
    request(b, { t: 1150, key: 'k2' });
    b.add(1800, {
      type: 'remote-state',
      label: 'final',
      jobs: [],
      effects: [effect('act_1', { idempotencyKey: 'k1' }), effect('act_2', { idempotencyKey: 'k2' })],
    });
    expect(idempotentEffects.run(b.build()).verdict).toBe('pass');
  });

  it('is unknown without the remote state, and left out when not asked for', () => {
    expect(idempotentEffects.run(lostDrill(on).build()).verdict).toBe('unknown');
    expect(runChecks(lostDrill().build()).map((c) => c.id)).not.toContain('idempotent-effects');
  });
});

describe('denied-after-revocation', () => {
  const on = { expect: { deniedAfterRevocation: true } };

  it('passes when the probe is denied and every later attempt was denied', () => {
    const b = request(lostDrill(on), { t: 1250, method: 'GET', path: '/whoami', write: false, outcome: 'denied', status: 401 });
    const result = deniedAfterRevocation.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('the revoked token is denied; all 1 later attempts were denied, the first 40 ms after');
  });

  it('fails when the probe with the revoked token is answered', () => {
    const result = deniedAfterRevocation.run(lostDrill(on, 200).build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('the revoked token still works: the probe GET /whoami was answered 200');
  });

  it('fails when a drill process succeeds with the long-lived API key, and says to rotate it', () => {
    const b = request(lostDrill(on), { t: 1300, method: 'GET', path: '/whoami', write: false, credential: 'api-key', outcome: 'ok', status: 200, pid: 5150 });
    const result = deniedAfterRevocation.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(
      '1 request succeeded after the session was revoked, first: GET /whoami (the long-lived API key, pid 5150) -> 200; rotate the long-lived API key',
    );
    expect(result.data.followUp).toContain('rotate the long-lived API key');
  });

  describe('an API-key request no drill could claim (its sender was gone before the remote looked)', () => {
    /** As the remote journals it: no session, no process, no drill. */
    const unclaimed = (b: EvidenceBuilder, t: number, outcome: 'ok' | 'denied', status: number): EvidenceBuilder => {
      const s = seq++;
      const req: JournalEvent = {
        kind: 'request',
        n: n++,
        t,
        seq: s,
        credential: 'api-key',
        method: 'GET',
        path: '/whoami',
        route: 'GET /whoami',
        write: false,
        attribution: 'none',
      } as JournalEvent;
      const out: JournalEvent = { kind: 'outcome', n: n++, t: t + 1, seq: s, outcome, status } as JournalEvent;
      return b.add(t, { type: 'remote-unattributed', entry: req }, 'remote').add(t + 1, { type: 'remote-unattributed', entry: out }, 'remote');
    };

    it('makes an otherwise clean drill unknown, never pass, when it succeeded after the revocation', () => {
      const result = deniedAfterRevocation.run(unclaimed(lostDrill(on), 1300, 'ok', 200).build());
      expect(result.verdict).toBe('unknown');
      expect(result.summary).toBe(
        "the revoked token is denied, but 1 request with the long-lived API key succeeded after the revocation that no process could be tied to (the sender was gone before the remote looked): it may have been this drill's, first: GET /whoami (the long-lived API key, an unattributed process) -> 200",
      );
    });

    it('changes nothing when it was denied, came before the revocation, or came during containment', () => {
      expect(deniedAfterRevocation.run(unclaimed(lostDrill(on), 1300, 'denied', 401).build()).verdict).toBe('pass');
      expect(deniedAfterRevocation.run(unclaimed(lostDrill(on), 1205, 'ok', 200).build()).verdict).toBe('pass');
      expect(deniedAfterRevocation.run(unclaimed(lostDrill(on).add(2000, { type: 'containment-start' }), 2100, 'ok', 200).build()).verdict).toBe('pass');
    });

    it('leaves a fail a fail', () => {
      const b = request(lostDrill(on), { t: 1300, method: 'GET', path: '/whoami', write: false, credential: 'api-key', outcome: 'ok', status: 200, pid: 5150 });
      expect(deniedAfterRevocation.run(unclaimed(b, 1400, 'ok', 200).build()).verdict).toBe('fail');
    });
  });

  it("ignores the harness's own probe, requests before the revocation and the retry's fresh session", () => {
    const b = request(lostDrill(on), { t: 1100, outcome: 'committed' });
    request(b, { t: 1216, method: 'GET', path: '/whoami', write: false, outcome: 'denied', status: 401, pid: HARNESS_PID });
    b.add(1500, { type: 'session', role: 'retry', sessionId: 's2' });
    request(b, { t: 1600, session: 's2', outcome: 'committed' });
    const result = deniedAfterRevocation.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('the revoked token is denied; no process of the drill tried anything after');
  });

  it('judges what happened before containment, not what the harness provoked while ending the processes', () => {
    const during = request(lostDrill(on).add(2000, { type: 'containment-start' }), {
      t: 2100,
      method: 'GET',
      path: '/whoami',
      write: false,
      credential: 'api-key',
      outcome: 'ok',
      status: 200,
    });
    expect(deniedAfterRevocation.run(during.build()).verdict).toBe('pass');
    const before = request(lostDrill(on), { t: 1900, method: 'GET', path: '/whoami', write: false, credential: 'api-key', outcome: 'ok', status: 200 }).add(
      2000,
      { type: 'containment-start' },
    );
    expect(deniedAfterRevocation.run(before.build()).verdict).toBe('fail');
  });

  it('is unknown when the client was never lost', () => {
    const b = new EvidenceBuilder(on)
      .start(1000)
      .add(1001, { type: 'session', role: 'drill', sessionId: 's1' })
      .add(3000, { type: 'revoked', sessionId: 's1', operator: 'containment' });
    expect(deniedAfterRevocation.run(b.build()).verdict).toBe('unknown');
  });
});

describe('quiet-after-loss', () => {
  const on = { expect: { quietAfterLoss: true } };

  it('passes when the only write after the loss is the in-flight call’s own (its correlation id)', () => {
    const b = request(lostDrill(on), { t: 1205, key: CORR, outcome: 'denied', status: 401 });
    request(b, { t: 1300, method: 'POST', path: '/jobs/j1/cancel', write: false, outcome: 'ok', status: 200 });
    const result = quietAfterLoss.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe("no new write after the client was lost (the in-flight call's own write arrived 5 ms after)");
  });

  it('fails on a new write after the loss, whatever its answer', () => {
    const b = request(lostDrill(on), { t: 1100, key: CORR });
    request(b, { t: 1300, key: 'heartbeat-1', outcome: 'denied', status: 401, pid: 5151 });
    const result = quietAfterLoss.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('1 new write after the client was lost, the first 100 ms after: POST /actions (session credential, pid 5151) -> 401');
  });

  it('is left out in hang mode (the server does not know its client is stuck)', () => {
    expect(runChecks(lostDrill({ ...on, mode: 'hang' }).build()).map((c) => c.id)).not.toContain('quiet-after-loss');
  });
});

describe('jobs-settled', () => {
  const on = { expect: { jobsSettled: { grace: 500 } } };

  it('passes when every job of the session was cancelled or completed by the end of grace', () => {
    const b = lostDrill(on).add(1700, { type: 'remote-state', label: 'grace-end', jobs: [job('job_1', 'cancelled'), job('job_2', 'completed')], effects: [] });
    const result = jobsSettled.run(b.build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('all 2 remote jobs settled (1 cancelled, 1 completed)');
  });

  it('fails listing the jobs still running, with what to do', () => {
    const b = lostDrill(on).add(1700, {
      type: 'remote-state',
      label: 'grace-end',
      jobs: [job('job_1', 'running'), { ...job('job_9', 'running'), sessionId: 's2' }],
      effects: [],
    });
    const result = jobsSettled.run(b.build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('1 remote job still running at the end of the grace period: job_1; cancel it');
    expect(result.data.unresolved).toEqual(['job_1']);
  });

  it('is unknown without the grace-end state and left out in hang mode', () => {
    expect(jobsSettled.run(lostDrill(on).build()).verdict).toBe('unknown');
    expect(runChecks(lostDrill({ ...on, mode: 'hang' }).build()).map((c) => c.id)).not.toContain('jobs-settled');
  });
});
