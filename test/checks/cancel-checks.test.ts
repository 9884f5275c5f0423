/**
 * The three cancel checks on built evidence, both ways, at their edges: the in-flight allowance
 * of silent-after-cancel (told apart by time), a later kill that cuts the window short
 * (unknown, never a pass), and the drill that never got to cancel. The real servers that pass
 * and fail them are in test/drill/era-matrix.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../harness/checks/registry.js';
import { aliveAfterCancel } from '../../harness/checks/alive-after-cancel/check.js';
import { silentAfterCancel } from '../../harness/checks/silent-after-cancel/check.js';
import { stopsAfterCancel } from '../../harness/checks/stops-after-cancel/check.js';
import { EvidenceBuilder } from './evidence-builder.js';

const TOKEN = 'cd-20260101T000000-abcdef-0003:write';
const EXPECT = { silentAfterCancel: { inFlight: 100 }, stopsAfterCancel: { deadline: 800 }, aliveAfterCancel: { deadline: 800 } };

function cancelled(then: 'crash' | null = null) {
  return new EvidenceBuilder({ mode: 'cancel', point: 'in-flight', ...(then ? { cancel: { then, after: 300 } } : {}), expect: EXPECT })
    .start()
    .spawned()
    .handshake()
    .add(1200, { type: 'dispatched', requestId: 'cd-3' }, 'client')
    .pointReached(1201)
    .add(1210, { type: 'cancel-sent', requestId: 'cd-3', progressToken: TOKEN }, 'client');
}

const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: TOKEN, progress: 3 } };

describe('silent-after-cancel', () => {
  it('passes with a message read within the in-flight allowance, and counts it', () => {
    const ev = cancelled()
      .rpcIn(1290, progress)
      .rpcIn(1295, { jsonrpc: '2.0', id: 'cd-4', result: { tools: [] } })
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('pass');
    expect(r.summary).toBe('nothing more for the cancelled request "cd-3" after the cancel (1 already on its way within 100 ms)');
  });

  it('fails on progress or a response for the cancelled id after the allowance, and not on other ids', () => {
    const ev = cancelled()
      .rpcIn(1400, { jsonrpc: '2.0', id: 'cd-9', result: {} })
      .rpcIn(1420, progress)
      .rpcIn(1500, { jsonrpc: '2.0', id: 'cd-3', result: {} })
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('fail');
    expect(r.summary).toBe('2 messages for the cancelled request "cd-3" after the cancel, the first 210 ms after: a progress notification');
  });

  it('passes with a message read late, but before the server answered the request sent right behind the cancel', () => {
    // A loaded machine: the server got to the cancel 240 ms late; what it wrote before that is read before the follow-up's answer.
    const ev = cancelled()
      .add(1211, { type: 'rpc-out', message: { jsonrpc: '2.0', id: 'cd-4', method: 'tools/list' } }, 'client')
      .rpcIn(1440, progress)
      .rpcIn(1450, { jsonrpc: '2.0', id: 'cd-4', result: { tools: [] } })
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('pass');
    expect(r.summary).toBe(
      'nothing more for the cancelled request "cd-3" after the cancel (1 already on its way: read within 100 ms, or before the server answered the request sent right behind the cancel)',
    );
    expect(r.data).toMatchObject({ inFlight: 1, barrierMs: 240, after: [] });
  });

  it('fails on progress read after the server answered the request sent behind the cancel, late as it is', () => {
    const ev = cancelled()
      .add(1211, { type: 'rpc-out', message: { jsonrpc: '2.0', id: 'cd-4', method: 'tools/list' } }, 'client')
      .rpcIn(1440, { jsonrpc: '2.0', id: 'cd-4', result: { tools: [] } })
      .rpcIn(1445, progress)
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('fail');
    expect(r.summary).toBe('1 message for the cancelled request "cd-3" after the cancel, the first 235 ms after: a progress notification');
    expect(r.data).toMatchObject({ inFlight: 0, barrierMs: 230 });
  });

  it('is unknown when the call was never cancelled', () => {
    const ev = new EvidenceBuilder({ mode: 'cancel', point: 'in-flight', expect: EXPECT })
      .start()
      .spawned()
      .handshake()
      .pointTimeout(6000, 'in-flight', 5000, 'the target call was never written')
      .build();
    expect(silentAfterCancel.run(ev)).toMatchObject({
      verdict: 'unknown',
      summary: 'the kill point in-flight was not reached within 5000 ms: the target call was never written',
    });
  });
});

describe('stops-after-cancel', () => {
  const child = { type: 'process-new' as const, pid: 5000, startTime: 999_000, ppid: 4242, cmdline: ['node', 'helper.js'], foundBy: ['parent-links'] };

  it('passes when the call’s child ended within the deadline', () => {
    const ev = cancelled()
      .add(1205, child, 'observer')
      .add(1400, { type: 'process-exit', pid: 5000, startTime: 999_000 }, 'observer')
      .add(2100, { type: 'containment-start' })
      .build();
    expect(stopsAfterCancel.run(ev)).toMatchObject({
      verdict: 'pass',
      summary: 'the call stopped after the cancel: its child ended within 190 ms, no new write, no job left running',
    });
  });

  it('fails when the child outlived the deadline', () => {
    const ev = cancelled()
      .add(1205, child, 'observer')
      .add(2100, { type: 'containment-start' })
      .add(2150, { type: 'process-exit', pid: 5000, startTime: 999_000 }, 'observer')
      .build();
    expect(stopsAfterCancel.run(ev)).toMatchObject({
      verdict: 'fail',
      summary: 'a child the call started still running 800 ms after the cancel: pid 5000 (node helper.js)',
    });
  });

  it('is unknown when a later kill cut the window short with the child still running', () => {
    const ev = cancelled('crash').add(1205, child, 'observer').clientLost(1510, 'crash').add(2600, { type: 'containment-start' }).build();
    expect(stopsAfterCancel.run(ev).verdict).toBe('unknown');
  });
});

describe('alive-after-cancel', () => {
  it('passes on an answered follow-up within the deadline, fails on a failed one', () => {
    const ok = cancelled()
      .add(1230, { type: 'follow-up', ok: true, detail: 'tools/list answered with 5 tools' }, 'client')
      .add(2100, { type: 'containment-start' })
      .build();
    expect(aliveAfterCancel.run(ok)).toMatchObject({
      verdict: 'pass',
      summary: 'the server answered a follow-up tools/list with 5 tools 20 ms after the cancel',
    });
    const closed = cancelled()
      .add(1260, { type: 'follow-up', ok: false, detail: 'tools/list: the server closed the connection' }, 'client')
      .add(2100, { type: 'containment-start' })
      .build();
    expect(aliveAfterCancel.run(closed)).toMatchObject({
      verdict: 'fail',
      summary: 'the follow-up after the cancel failed 50 ms after it: tools/list: the server closed the connection',
    });
  });

  it('fails when nothing came back within the deadline', () => {
    const ev = cancelled().add(2100, { type: 'containment-start' }).build();
    expect(aliveAfterCancel.run(ev)).toMatchObject({
      verdict: 'fail',
      summary: 'the server did not answer tools/list within 800 ms of the cancel (no answer)',
    });
  });
});

describe('which checks judge a cancel drill', () => {
  it('without a later kill: stdout-clean and the cancel checks only; with cancel.then crash: the loss checks too', () => {
    const alone = cancelled().add(2100, { type: 'containment-start' }).build();
    expect(runChecks(alone).map((c) => c.id)).toEqual(['stdout-clean', 'silent-after-cancel', 'stops-after-cancel', 'alive-after-cancel']);
    const then = cancelled('crash').clientLost(1510, 'crash').add(2600, { type: 'containment-start' }).build();
    expect(runChecks(then).map((c) => c.id)).toEqual([
      'exit-on-eof',
      'no-survivors',
      'stdout-clean',
      'silent-after-cancel',
      'stops-after-cancel',
      'alive-after-cancel',
    ]);
  });
});
