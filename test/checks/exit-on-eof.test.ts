import { describe, expect, it } from 'vitest';
import { exitOnEof } from '../../harness/checks/exit-on-eof/check.js';
import { runChecks } from '../../harness/checks/all-checks.js';
import { EvidenceBuilder, SERVER, passingDrill } from './evidence-builder.js';

/** Loss at 1200, deadline 1000 ms unless a test says otherwise. */
function lostAt1200(overrides: ConstructorParameters<typeof EvidenceBuilder>[0] = {}): EvidenceBuilder {
  return new EvidenceBuilder(overrides).start(1000).spawned(1010).handshake(1100).pointReached(1200).clientLost(1200);
}

describe('exit-on-eof', () => {
  it('passes when the server exits within the deadline, and says the ms and the code', () => {
    const result = exitOnEof.run(passingDrill().build());
    expect(result).toEqual({
      id: 'exit-on-eof',
      verdict: 'pass',
      summary: 'the server exited 50 ms after losing its client (code 0)',
      data: { lossAt: 1200, exitAt: 1250, elapsedMs: 50, deadlineMs: 1000, code: 0, signal: null },
    });
  });

  it('passes with a non-zero code too once the server served (how it ended is recorded, not judged)', () => {
    const result = exitOnEof.run(lostAt1200().answered(1150).serverExit(1300, { code: 3 }).build());
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('the server exited 100 ms after losing its client (code 3)');
  });

  it('passes exactly at the deadline and fails one ms past it', () => {
    const at = exitOnEof.run(lostAt1200().serverExit(2200).build());
    expect(at.verdict).toBe('pass');
    expect(at.summary).toBe('the server exited 1000 ms after losing its client (code 0)');
    const past = exitOnEof.run(lostAt1200().serverExit(2201).build());
    expect(past.verdict).toBe('fail');
    expect(past.summary).toBe('the server exited 1001 ms after losing its client (code 0); the deadline is 1000 ms');
  });

  it('fails when the server exits after the deadline, naming both numbers', () => {
    const result = exitOnEof.run(
      lostAt1200({ expect: { exitOnEof: { deadline: 300 } } })
        .serverExit(1700, { code: 0 })
        .build(),
    );
    expect(result).toEqual({
      id: 'exit-on-eof',
      verdict: 'fail',
      summary: 'the server exited 500 ms after losing its client (code 0); the deadline is 300 ms',
      data: { lossAt: 1200, exitAt: 1700, elapsedMs: 500, deadlineMs: 300, code: 0, signal: null },
    });
  });

  it('fails when the server never exits (still running at the end of the evidence)', () => {
    const result = exitOnEof.run(lostAt1200().snapshot(2700, []).end(3450).build());
    expect(result).toEqual({
      id: 'exit-on-eof',
      verdict: 'fail',
      summary: `the server (pid ${SERVER.pid}) did not exit on its own: still running 2250 ms after losing its client (deadline 1000 ms)`,
      data: { lossAt: 1200, deadlineMs: 1000, exited: false },
    });
  });

  it('fails with pid ? when the evidence never saw the server spawn', () => {
    const ev = new EvidenceBuilder().start(1000).clientLost(1200).end(1500).build();
    expect(exitOnEof.run(ev).summary).toBe('the server (pid ?) did not exit on its own: still running 300 ms after losing its client (deadline 1000 ms)');
  });

  it("fails when the client's shutdown SIGTERM came before the exit, even within the deadline", () => {
    const ev = lostAt1200({ mode: 'close', expect: { exitOnEof: { deadline: 5000 } } })
      .stopStep(1200, 'close-stdin')
      .stopStep(3200, 'SIGTERM')
      .serverExit(3210, { code: null, signal: 'SIGTERM', observedBy: 'client' })
      .build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe("the server did not exit on EOF: it was ended by SIGTERM from the client's shutdown 2010 ms after losing its client");
    expect(result.data).toEqual({
      lossAt: 1200,
      exitAt: 3210,
      elapsedMs: 2010,
      deadlineMs: 5000,
      code: null,
      signal: 'SIGTERM',
      endedBy: "SIGTERM from the client's shutdown",
      endedByWho: 'client',
    });
  });

  it("names SIGKILL when the client's shutdown had to escalate", () => {
    const ev = lostAt1200({ mode: 'close', expect: { exitOnEof: { deadline: 9000 } } })
      .stopStep(1200, 'close-stdin')
      .stopStep(3200, 'SIGTERM')
      .stopStep(5200, 'SIGKILL')
      .serverExit(5201, { code: null, signal: 'SIGKILL' })
      .build();
    expect(exitOnEof.run(ev).summary).toBe(
      "the server did not exit on EOF: it was ended by SIGKILL from the client's shutdown 4001 ms after losing its client",
    );
  });

  it('passes in close mode when only stdin was closed before the exit (that is the EOF itself)', () => {
    const ev = lostAt1200({ mode: 'close' }).stopStep(1200, 'close-stdin').serverExit(1260, { code: 0 }).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('pass');
    expect(result.summary).toBe('the server exited 60 ms after losing its client (code 0)');
  });

  it('ignores stop steps that came after the exit', () => {
    const ev = lostAt1200({ mode: 'close' }).stopStep(1200, 'close-stdin').serverExit(1260).stopStep(3200, 'SIGTERM').build();
    expect(exitOnEof.run(ev).verdict).toBe('pass');
  });

  it('fails when the harness sent a signal to the server before it exited', () => {
    const ev = lostAt1200().signal(2300, { signal: 'SIGTERM', by: 'harness', result: 'sent' }).serverExit(2310, { code: null, signal: 'SIGTERM' }).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('the server did not exit on EOF: it was ended by SIGTERM from the harness 1110 ms after losing its client');
    expect(result.data).toHaveProperty('endedBy', 'SIGTERM from the harness');
  });

  it('does not blame a harness signal that was not sent, went to another pid, or came after the exit', () => {
    const notSent = lostAt1200().signal(1220, { result: 'zombie' }).serverExit(1250).build();
    const otherPid = lostAt1200().signal(1220, { pid: 5001, startTime: 990_000 }).serverExit(1250).build();
    const after = lostAt1200().serverExit(1250).signal(1252).build();
    for (const ev of [notSent, otherPid, after]) {
      const result = exitOnEof.run(ev);
      expect(result.verdict).toBe('pass');
      expect(result.summary).toBe('the server exited 50 ms after losing its client (code 0)');
    }
  });

  it('counts a signal stamped up to 1 ms after the exit (stamps from two processes round differently)', () => {
    const ev = lostAt1200().serverExit(1250, { code: null, signal: 'SIGTERM' }).signal(1251).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe('the server did not exit on EOF: it was ended by SIGTERM from the harness 50 ms after losing its client');
  });

  it('names the latest sender when both the client and the harness signalled', () => {
    const ev = lostAt1200({ mode: 'close', expect: { exitOnEof: { deadline: 9000 } } })
      .stopStep(1200, 'close-stdin')
      .stopStep(3200, 'SIGTERM')
      .signal(4000, { signal: 'SIGKILL' })
      .serverExit(4001, { code: null, signal: 'SIGKILL' })
      .build();
    expect(exitOnEof.run(ev).data).toHaveProperty('endedBy', 'SIGKILL from the harness');
  });

  it('is unknown with the point-timeout reason when the client was never lost', () => {
    const ev = new EvidenceBuilder({ point: 'sent' })
      .start(1000)
      .spawned(1010)
      .pointTimeout(6000, 'sent', 5000, 'the remote never saw the request')
      .end(6100)
      .build();
    expect(exitOnEof.run(ev)).toEqual({
      id: 'exit-on-eof',
      verdict: 'unknown',
      summary: 'the kill point sent was not reached within 5000 ms: the remote never saw the request',
      data: {},
    });
  });

  it('is unknown without a point-timeout either, and never a pass', () => {
    const ev = new EvidenceBuilder().start(1000).spawned(1010).serverExit(1500).end(1600).build();
    const result = exitOnEof.run(ev);
    expect(result.verdict).toBe('unknown');
    expect(result.summary).toBe('the client was never lost, so there is nothing to judge');
  });

  it('is unknown when the server exited before its client was lost', () => {
    const ev = new EvidenceBuilder().start(1000).spawned(1010).serverExit(1150, { code: 1 }).clientLost(1200).end(1300).build();
    expect(exitOnEof.run(ev)).toEqual({
      id: 'exit-on-eof',
      verdict: 'unknown',
      summary: 'the server had already exited (code 1, signal null) before its client was lost',
      data: { exitAt: 1150, lossAt: 1200 },
    });
  });

  it('does not apply in hang mode nor when expect.exitOnEof is null, and runChecks leaves it out', () => {
    const hang = passingDrill({ mode: 'hang' }).build();
    const off = passingDrill({ expect: { exitOnEof: null } }).build();
    const on = passingDrill().build();
    expect(exitOnEof.applies(hang, 'hang')).toBe(false);
    expect(exitOnEof.applies(off, 'crash')).toBe(false);
    expect(exitOnEof.applies(on, 'crash')).toBe(true);
    expect(exitOnEof.applies(on, 'close')).toBe(true);
    expect(runChecks(hang).map((c) => c.id)).toEqual(['stdout-clean']);
    expect(runChecks(off).map((c) => c.id)).toEqual(['no-survivors', 'stdout-clean']);
    expect(runChecks(on).map((c) => c.id)).toEqual(['exit-on-eof', 'no-survivors', 'stdout-clean']);
  });
});
