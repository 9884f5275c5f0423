/**
 * The three cancel checks on built evidence, both ways, at their edges: what silent-after-cancel
 * allows and fails without a clock (read before the cancel was written, a cancellation, the
 * call's own answer, outlasts-cancel, progress behind the follow-up's answer), a later kill that
 * cuts the window short (unknown, never a pass), and the drill that never got to cancel. The
 * real servers that pass and fail them are in test/drill/era-matrix.e2e.test.ts,
 * test/drill/cancel-cause.e2e.test.ts and the SDK matrices.
 */
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../harness/checks/all-checks.js';
import { aliveAfterCancel } from '../../harness/checks/alive-after-cancel/check.js';
import { cancellationIn } from '../../harness/checks/silent-after-cancel/cancellation.js';
import { silentAfterCancel } from '../../harness/checks/silent-after-cancel/check.js';
import { stopsAfterCancel } from '../../harness/checks/stops-after-cancel/check.js';
import { EvidenceBuilder } from './evidence-builder.js';

const TOKEN = 'cd-20260101T000000-abcdef-0003:write';
const EXPECT = { silentAfterCancel: { outlastsCancel: false }, stopsAfterCancel: { deadline: 800 }, aliveAfterCancel: { deadline: 800 } };

function dispatched(outlastsCancel = false) {
  return new EvidenceBuilder({ mode: 'cancel', point: 'in-flight', expect: { ...EXPECT, silentAfterCancel: { outlastsCancel } } })
    .start()
    .spawned()
    .handshake()
    .add(1200, { type: 'dispatched', requestId: 'cd-3' }, 'client')
    .pointReached(1201);
}

const CANCEL = { type: 'cancel-sent', requestId: 'cd-3', progressToken: TOKEN, drained: { bytes: 0, complete: true } } as const;

function cancelled(then: 'crash' | null = null) {
  return new EvidenceBuilder({ mode: 'cancel', point: 'in-flight', ...(then ? { cancel: { then, after: 300 } } : {}), expect: EXPECT })
    .start()
    .spawned()
    .handshake()
    .add(1200, { type: 'dispatched', requestId: 'cd-3' }, 'client')
    .pointReached(1201)
    .add(1210, CANCEL, 'client');
}

const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: TOKEN, progress: 3 } };
const followUp = { jsonrpc: '2.0', id: 'cd-4', method: 'tools/list' };
const followUpAnswer = { jsonrpc: '2.0', id: 'cd-4', result: { tools: [] } };
const done = { jsonrpc: '2.0', id: 'cd-3', result: { content: [{ type: 'text', text: 'done' }] } };

describe('silent-after-cancel', () => {
  it('passes an answer read before the cancel was written (the drain): it crossed the cancel', () => {
    const ev = dispatched()
      .rpcIn(1205, done)
      .add(1210, { ...CANCEL, drained: { bytes: 80, complete: true } }, 'client')
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('pass');
    expect(r.summary).toBe('nothing the cancel caused for the cancelled request "cd-3" (1 read before the cancel was written, which crossed it)');
    expect(r.data).toMatchObject({ crossed: 1, drained: { bytes: 80, complete: true }, after: [], ownEnd: [] });
  });

  it('fails a cancellation error read at once after the cancel: the cancel caused it', () => {
    const ev = cancelled()
      .rpcIn(1211, { jsonrpc: '2.0', id: 'cd-3', error: { code: -32800, message: 'Request cancelled' } })
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('fail');
    expect(r.summary).toBe(
      '1 message for the cancelled request "cd-3" after the cancel, the first 1 ms after: an error response (-32800: Request cancelled), a cancellation (the error code -32800 (request cancelled)): the cancel caused it',
    );
  });

  it('tells a cancellation by its code or its text, in an error or an isError result, and nothing else', () => {
    const result = (text: string, isError = true) => ({ jsonrpc: '2.0', id: 1, result: { isError, content: [{ type: 'text', text }] } });
    expect(cancellationIn({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'signal: killed' } })).toMatch(/signal: killed/);
    expect(cancellationIn(result('context canceled'))).toBe("Go's context.Canceled");
    expect(cancellationIn({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'tool failed', data: 'context canceled' } })).toBe("Go's context.Canceled");
    expect(cancellationIn(result('done'))).toBeNull();
    expect(cancellationIn(result('context canceled', false))).toBeNull();
    expect(cancellationIn({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'disk full' } })).toBeNull();
  });

  it('passes the call’s own answer read after the cancel, even behind the follow-up’s answer, and says it may have crossed', () => {
    const ev = cancelled()
      .add(1211, { type: 'rpc-out', message: followUp }, 'client')
      .rpcIn(1240, followUpAnswer)
      .rpcIn(1300, done)
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('pass');
    expect(r.summary).toBe(
      'nothing the cancel caused for the cancelled request "cd-3" (1 read after it that is not a cancellation and may have crossed it: the response)',
    );
    expect(r.data).toMatchObject({ crossed: 0, barrierMs: 30, after: [], ownEnd: [{ afterMs: 90, what: 'the response' }] });
  });

  it('with outlasts-cancel, fails the call’s own answer read after the cancel: it cannot have crossed it', () => {
    const ev = dispatched(true).add(1210, CANCEL, 'client').rpcIn(1211, done).add(2100, { type: 'containment-start' }).build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('fail');
    expect(r.summary).toBe(
      '1 message for the cancelled request "cd-3" after the cancel, the first 1 ms after: the response, the call cannot have ended before the server read the cancel (outlasts-cancel)',
    );
  });

  it('with outlasts-cancel, still passes progress read before the follow-up’s answer (it crossed the cancel) and fails progress after it', () => {
    const crossing = dispatched(true)
      .add(1210, CANCEL, 'client')
      .add(1211, { type: 'rpc-out', message: followUp }, 'client')
      .rpcIn(1212, progress)
      .rpcIn(1240, followUpAnswer)
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(crossing);
    expect(r.verdict).toBe('pass');
    expect(r.summary).toBe(
      'nothing the cancel caused for the cancelled request "cd-3" (1 read after it that is not a cancellation and may have crossed it: a progress notification)',
    );
    const late = dispatched(true)
      .add(1210, CANCEL, 'client')
      .add(1211, { type: 'rpc-out', message: followUp }, 'client')
      .rpcIn(1240, followUpAnswer)
      .rpcIn(1250, progress)
      .add(2100, { type: 'containment-start' })
      .build();
    expect(silentAfterCancel.run(late)).toMatchObject({
      verdict: 'fail',
      summary:
        '1 message for the cancelled request "cd-3" after the cancel, the first 40 ms after: a progress notification, read after the server answered the request sent behind the cancel, so written after it read the cancel',
    });
  });

  it('fails progress read after the server answered the request sent behind the cancel, not progress before it, nor other ids', () => {
    const ev = cancelled()
      .add(1211, { type: 'rpc-out', message: followUp }, 'client')
      .rpcIn(1220, progress)
      .rpcIn(1230, { jsonrpc: '2.0', id: 'cd-9', result: {} })
      .rpcIn(1440, followUpAnswer)
      .rpcIn(1445, progress)
      .add(2100, { type: 'containment-start' })
      .build();
    const r = silentAfterCancel.run(ev);
    expect(r.verdict).toBe('fail');
    expect(r.summary).toBe(
      '1 message for the cancelled request "cd-3" after the cancel, the first 235 ms after: a progress notification, read after the server answered the request sent behind the cancel, so written after it read the cancel',
    );
    expect(r.data).toMatchObject({ crossed: 0, barrierMs: 230, ownEnd: [{ afterMs: 10, what: 'a progress notification' }] });
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
