import { describe, expect, it } from 'vitest';
import { noSurvivors } from '../../harness/checks/no-survivors/check.js';
import { EvidenceBuilder, passingDrill, survivor } from './evidence-builder.js';

function lostAt1200(mode: 'crash' | 'close' | 'hang' = 'crash'): EvidenceBuilder {
  return new EvidenceBuilder({ mode }).start(1000).spawned(1010).clientLost(1200).serverExit(1250);
}

describe('no-survivors', () => {
  it('passes when the grace-end snapshot is empty, saying how long after the loss it was taken', () => {
    expect(noSurvivors.run(passingDrill().build())).toEqual({
      id: 'no-survivors',
      verdict: 'pass',
      summary: 'no process of the drill remained 500 ms after the client was lost',
      data: { afterMs: 500, early: false },
    });
  });

  it('records an early snapshot (everything was gone before the grace ended)', () => {
    const result = noSurvivors.run(lostAt1200().snapshot(1300, [], { early: true }).build());
    expect(result.verdict).toBe('pass');
    expect(result.data).toEqual({ afterMs: 100, early: true });
  });

  it('fails naming the one survivor: pid, ppid and cmdline', () => {
    const row = survivor({ pid: 5001, startTime: 990_000, ppid: 1, cmdline: ['node', 'leak.js', '--forever'] });
    expect(noSurvivors.run(lostAt1200().snapshot(1700, [row]).build())).toEqual({
      id: 'no-survivors',
      verdict: 'fail',
      summary: '1 process survived 500 ms after the client was lost: pid 5001 (ppid 1) node leak.js --forever',
      data: { afterMs: 500, survivors: [{ pid: 5001, startTime: 990_000, ppid: 1 }] },
    });
  });

  it('lists the first three survivors and counts the rest as "and N more"', () => {
    const rows = [1, 2, 3, 4, 5].map((i) => survivor({ pid: 6000 + i, startTime: 70_000 + i, ppid: 6000, cmdline: ['sleep', String(i)] }));
    const result = noSurvivors.run(lostAt1200().snapshot(1700, rows).build());
    expect(result.verdict).toBe('fail');
    expect(result.summary).toBe(
      '5 processes survived 500 ms after the client was lost: pid 6001 (ppid 6000) sleep 1; pid 6002 (ppid 6000) sleep 2; pid 6003 (ppid 6000) sleep 3; and 2 more',
    );
    expect(result.data).toHaveProperty(
      'survivors',
      rows.map((r) => ({ pid: r.pid, startTime: r.startTime, ppid: r.ppid })),
    );
  });

  it('says no "more" with exactly three survivors', () => {
    const rows = [1, 2, 3].map((i) => survivor({ pid: 6000 + i, ppid: 1, cmdline: ['sh'] }));
    expect(noSurvivors.run(lostAt1200().snapshot(1700, rows).build()).summary).toBe(
      '3 processes survived 500 ms after the client was lost: pid 6001 (ppid 1) sh; pid 6002 (ppid 1) sh; pid 6003 (ppid 1) sh',
    );
  });

  it('cuts a long command line at 80 characters', () => {
    const long = 'x'.repeat(200);
    const result = noSurvivors.run(
      lostAt1200()
        .snapshot(1700, [survivor({ cmdline: ['node', long] })])
        .build(),
    );
    expect(result.summary).toBe(`1 process survived 500 ms after the client was lost: pid 5001 (ppid 1) node ${'x'.repeat(75)}`);
  });

  it('is unknown when no snapshot was taken', () => {
    expect(noSurvivors.run(lostAt1200().end(3000).build())).toEqual({
      id: 'no-survivors',
      verdict: 'unknown',
      summary: 'no process snapshot was taken after the grace period',
      data: {},
    });
  });

  it('is unknown with the point-timeout reason when the client was never lost, even with an empty snapshot', () => {
    const ev = new EvidenceBuilder({ point: 'child-spawned' })
      .start(1000)
      .pointTimeout(4000, 'child-spawned', 3000, 'no new descendant appeared')
      .snapshot(4500, [])
      .build();
    const result = noSurvivors.run(ev);
    expect(result.verdict).toBe('unknown');
    expect(result.summary).toBe('the kill point child-spawned was not reached within 3000 ms: no new descendant appeared');
  });

  it('does not apply in hang mode nor when expect.noSurvivors is null', () => {
    expect(noSurvivors.applies(passingDrill({ mode: 'hang' }).build(), 'hang')).toBe(false);
    expect(noSurvivors.applies(passingDrill({ expect: { noSurvivors: null } }).build(), 'crash')).toBe(false);
    expect(noSurvivors.applies(passingDrill().build(), 'crash')).toBe(true);
    expect(noSurvivors.applies(passingDrill({ mode: 'close' }).build(), 'close')).toBe(true);
  });

  describe('the floor: a process no method could attribute', () => {
    const daemon = { pid: 7100, startTime: 991_000, ppid: 1, sid: 7100, uid: 65534, cmdline: ['sleep', '300'], reason: 'it was re-parented to init (ppid 1)' };
    const withUnattributed = (seenAt: number) =>
      lostAt1200()
        .add(seenAt, { type: 'process-unattributed', ...daemon, firstSeen: seenAt }, 'observer')
        .snapshot(1700, []);

    it('turns an empty snapshot into unknown, naming the process, never pass', () => {
      const result = noSurvivors.run(withUnattributed(1300).build());
      expect(result.verdict).toBe('unknown');
      expect(result.summary).toBe(
        "no process the harness could attribute remained 500 ms after the client was lost, but 1 process appeared during the drill that no tracking method could tie to it or to anything else (pid 7100 (ppid 1) sleep 300): without a cgroup or a subreaper the harness cannot tell whether it is the drill's",
      );
      expect(result.data).toEqual({ afterMs: 500, unattributed: [{ pid: 7100, startTime: 991_000, ppid: 1, cmdline: ['sleep', '300'] }] });
      expect(noSurvivors.details!(result as never, withUnattributed(1300).build())).toEqual([
        { label: 'not attributable', items: ['pid 7100 (ppid 1, sid 7100) sleep 300: it was re-parented to init (ppid 1)'] },
      ]);
    });

    it('leaves a fail a fail: the survivors it did see are named', () => {
      const ev = lostAt1200()
        .add(1300, { type: 'process-unattributed', ...daemon, firstSeen: 1300 }, 'observer')
        .snapshot(1700, [survivor({ pid: 5001, ppid: 1, cmdline: ['node', 'leak.js'] })])
        .build();
      expect(noSurvivors.run(ev).verdict).toBe('fail');
    });

    it('ignores a process first seen after the snapshot (it cannot have changed what the snapshot saw)', () => {
      const ev = lostAt1200()
        .snapshot(1700, [])
        .add(1800, { type: 'process-unattributed', ...daemon, firstSeen: 1800 }, 'observer')
        .build();
      expect(noSurvivors.run(ev).verdict).toBe('pass');
    });
  });
});
