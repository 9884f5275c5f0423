/**
 * SIGPIPE is the server's own end: a server that wrote to its closed stdout after its client
 * died, and was ended by the kernel's SIGPIPE for that write (Go's runtime dies so on fd 1 and
 * 2), exited on its own; a SIGPIPE, or any other signal, that the harness or the client sent is
 * not. The real case: fake-servers/go/*-writes-after-eof in test/go-sdk/matrix.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { exitOnEof } from '../../harness/checks/exit-on-eof/check.js';
import { OWN_WRITE } from '../../harness/evidence/own-sigpipe.js';
import { exitInfo } from '../../harness/results/exit-info.js';
import { judge } from '../../harness/results/judge.js';
import { EvidenceBuilder } from './evidence-builder.js';

function lostAt1200(mode: 'crash' | 'close' = 'crash'): EvidenceBuilder {
  return new EvidenceBuilder({ mode }).start(1000).spawned(1010).handshake(1100).pointReached(1200).clientLost(1200, mode);
}

describe('SIGPIPE on its own write', () => {
  it('passes exit-on-eof, and says it was its own end', () => {
    const ev = lostAt1200().serverExit(1215, { code: null, signal: 'SIGPIPE' }).build();
    const result = exitOnEof.run(ev);
    expect(result).toEqual({
      id: 'exit-on-eof',
      verdict: 'pass',
      summary: `the server exited 15 ms after losing its client (SIGPIPE on ${OWN_WRITE}, its own end)`,
      data: { lossAt: 1200, exitAt: 1215, elapsedMs: 15, deadlineMs: 1000, code: null, signal: 'SIGPIPE', ownWrite: true },
    });
    expect(exitOnEof.details?.(result, ev)).toEqual([
      { label: 'server exit', items: [`SIGPIPE on ${OWN_WRITE} 15 ms after losing its client (deadline 1000 ms)`] },
    ]);
  });

  it('is classed broken-pipe, its sender the server itself', () => {
    const ev = lostAt1200().serverExit(1215, { code: null, signal: 'SIGPIPE' }).build();
    expect(exitInfo(ev)).toMatchObject({ class: 'broken-pipe', signal: 'SIGPIPE', signalFrom: OWN_WRITE, endedAfter: null, afterLossMs: 15 });
  });

  it('still fails exit-on-eof when it came past the deadline, as any late exit', () => {
    const ev = lostAt1200().serverExit(2500, { code: null, signal: 'SIGPIPE' }).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(`the server exited 1300 ms after losing its client (SIGPIPE on ${OWN_WRITE}, its own end); the deadline is 1000 ms`);
  });
});

describe('a signal someone sent', () => {
  it('a SIGPIPE the harness sent fails exit-on-eof and is a kill, not a broken pipe', () => {
    const ev = lostAt1200().signal(1210, { signal: 'SIGPIPE', by: 'harness' }).serverExit(1211, { code: null, signal: 'SIGPIPE' }).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('the server did not exit on EOF: it was ended by SIGPIPE from the harness 11 ms after losing its client');
    expect(result.data).not.toHaveProperty('ownWrite');
    expect(exitInfo(ev)).toMatchObject({ class: 'signal', signal: 'SIGPIPE', signalFrom: 'harness' });
  });

  it('a SIGPIPE the client sent fails exit-on-eof and is not the server own end', () => {
    const ev = lostAt1200().signal(1210, { signal: 'SIGPIPE', by: 'client' }).serverExit(1211, { code: null, signal: 'SIGPIPE' }).build();
    expect(exitOnEof.run(ev).verdict).toBe('fail');
    expect(exitInfo(ev)?.class).toBe('signal');
    expect(exitInfo(ev)?.signalFrom).not.toBe(OWN_WRITE);
  });

  it("the client's shutdown SIGTERM fails exit-on-eof (a signal other than SIGPIPE)", () => {
    const ev = lostAt1200('close').stopStep(1200, 'close-stdin').stopStep(2200, 'SIGTERM').serverExit(2205, { code: null, signal: 'SIGTERM' }).build();
    expect(exitOnEof.run(ev).summary).toBe(
      "the server did not exit on EOF: it was ended by SIGTERM from the client's shutdown 1005 ms after losing its client",
    );
    expect(exitInfo(ev)).toMatchObject({ class: 'signal', signal: 'SIGTERM', signalFrom: 'client' });
  });

  it('a signal other than SIGPIPE that nobody in the record sent is not called its own write', () => {
    const ev = lostAt1200().serverExit(1215, { code: null, signal: 'SIGKILL' }).build();
    expect(exitInfo(ev)).toMatchObject({ class: 'signal', signal: 'SIGKILL', signalFrom: 'not the harness or the client' });
    expect(exitOnEof.run(ev).data).not.toHaveProperty('ownWrite');
  });
});

describe('the drill result', () => {
  it("says so in the incident record's termination, and a late one's diagnosis calls it its own exit", () => {
    const onTime = judge(lostAt1200().serverExit(1215, { code: null, signal: 'SIGPIPE' }).end(1400).build());
    expect(onTime.incident.termination).toBe(`ended on its own: SIGPIPE on ${OWN_WRITE} (nobody sent it a signal)`);
    const late = judge(lostAt1200().serverExit(2500, { code: null, signal: 'SIGPIPE' }).end(2600).build());
    const exitDiagnosis = late.incident.diagnosis?.find((d) => d.check === 'exit-on-eof');
    expect(exitDiagnosis?.cause).toMatch(
      new RegExp(`^the server exited on its own \\(SIGPIPE on ${OWN_WRITE}\\) 1300 ms after losing its client, past the 1000 ms deadline`),
    );
  });
});
