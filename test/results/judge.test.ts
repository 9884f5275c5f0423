import { describe, expect, it } from 'vitest';
import { judge } from '../../harness/results/judge.js';
import { containmentRecord, EvidenceBuilder, passingDrill, SERVER, survivor } from '../checks/evidence-builder.js';

const TRACKING = {
  methods: ['parent-links', 'env-marker', 'process-group', 'session', 'cgroup'],
  cgroup: '/sys/fs/cgroup/unified/crash-drill/x',
  subreaper: null,
  floor: false,
  blindSpots: [],
};

describe('judge', () => {
  it('gives the full result of a passing drill', () => {
    const ev = new EvidenceBuilder()
      .start(1000)
      .tracking(1005, TRACKING)
      .spawned(1010)
      .handshake(1100)
      .rpcIn(1100)
      .rpcIn(1150)
      .pointReached(1200)
      .clientLost(1200)
      .serverExit(1250, { code: 0 })
      .snapshot(1700, [])
      .end(1800)
      .build();
    expect(judge(ev)).toEqual({
      id: 'cd-20260101T000000-abcdef-0003',
      scenario: 'demo',
      subject: { name: 'well-behaved', command: 'node', args: ['dist/fake-servers/well-behaved.js'] },
      point: 'idle',
      mode: 'crash',
      clientProfile: 'ts-sdk',
      verdict: 'pass',
      reason:
        'the server exited 50 ms after losing its client (code 0); no process of the drill remained 500 ms after the client was lost; all 2 stdout lines were JSON-RPC messages',
      checks: [
        {
          id: 'exit-on-eof',
          verdict: 'pass',
          summary: 'the server exited 50 ms after losing its client (code 0)',
          data: { lossAt: 1200, exitAt: 1250, elapsedMs: 50, deadlineMs: 1000, code: 0, signal: null },
        },
        {
          id: 'no-survivors',
          verdict: 'pass',
          summary: 'no process of the drill remained 500 ms after the client was lost',
          data: { afterMs: 500, early: false },
        },
        { id: 'stdout-clean', verdict: 'pass', summary: 'all 2 stdout lines were JSON-RPC messages', data: { messages: 2, noise: 0 } },
      ],
      survivors: [],
      exit: {
        pid: SERVER.pid,
        code: 0,
        signal: null,
        class: 'clean',
        signalFrom: null,
        endedAfter: null,
        afterLossMs: 50,
        crash: null,
        stderrTail: '',
        launcher: null,
        statusFrom: 'server',
      },
      tracking: TRACKING,
      handshake: { serverName: 'well-behaved', serverVersion: '1.0.0', protocolVersion: '2025-11-25' },
      era: null,
      containment: [],
      forcedContainment: false,
      durationMs: 800,
      key: 'demo/idle/crash',
      incident: expect.objectContaining({ termination: 'exited with code 0', followUp: [] }),
      evidence: null,
    });
  });

  it('gives the full result of a failing drill: a slow, crashing server that leaked a child', () => {
    const leak = survivor({ pid: 5001, startTime: 990_000, ppid: 1, cmdline: ['sleep', '1000'] });
    const records = [
      containmentRecord({ pid: SERVER.pid, startTime: SERVER.startTime, cmdline: ['node', 'srv.js'], endedBy: 'already-gone', forced: false, steps: [] }),
      containmentRecord({
        pid: 5001,
        startTime: 990_000,
        cmdline: ['sleep', '1000'],
        endedBy: 'SIGKILL',
        forced: true,
        steps: [
          { t: 4100, kind: 'signal', target: { pid: 5001, startTime: 990_000 }, signal: 'SIGTERM', result: 'sent' },
          { t: 5100, kind: 'signal', target: { pid: 5001, startTime: 990_000 }, signal: 'SIGKILL', result: 'sent' },
        ],
      }),
    ];
    const ev = new EvidenceBuilder({ scenario: 'leaky', point: 'in-flight', mode: 'crash' })
      .start(1000)
      .spawned(1010)
      .stderr(1020, 'starting\n')
      .answered(1100)
      .pointReached(1200, 'in-flight')
      .clientLost(1200)
      .stderr(2390, 'Error: write EPIPE\n    at x\n')
      .serverExit(2400, { code: 1 })
      .snapshot(4000, [leak])
      .containment(5150, records)
      .end(5200)
      .build();
    expect(judge(ev)).toEqual({
      id: 'cd-20260101T000000-abcdef-0003',
      scenario: 'leaky',
      subject: { name: 'well-behaved', command: 'node', args: ['dist/fake-servers/well-behaved.js'] },
      point: 'in-flight',
      mode: 'crash',
      clientProfile: 'ts-sdk',
      verdict: 'fail',
      reason:
        'exit-on-eof: the server exited 1200 ms after losing its client (code 1); the deadline is 1000 ms | no-survivors: 1 process survived 2800 ms after the client was lost: pid 5001 (ppid 1) sleep 1000',
      checks: [
        {
          id: 'exit-on-eof',
          verdict: 'fail',
          summary: 'the server exited 1200 ms after losing its client (code 1); the deadline is 1000 ms',
          data: { lossAt: 1200, exitAt: 2400, elapsedMs: 1200, deadlineMs: 1000, code: 1, signal: null },
        },
        {
          id: 'no-survivors',
          verdict: 'fail',
          summary: '1 process survived 2800 ms after the client was lost: pid 5001 (ppid 1) sleep 1000',
          data: { afterMs: 2800, survivors: [{ pid: 5001, startTime: 990_000, ppid: 1 }] },
        },
        { id: 'stdout-clean', verdict: 'pass', summary: 'all 1 stdout lines were JSON-RPC messages', data: { messages: 1, noise: 0 } },
      ],
      survivors: [leak],
      exit: {
        pid: SERVER.pid,
        code: 1,
        signal: null,
        class: 'crash',
        signalFrom: null,
        endedAfter: null,
        afterLossMs: 1200,
        crash: 'Error: write EPIPE',
        stderrTail: 'starting\nError: write EPIPE\n    at x\n',
        launcher: null,
        statusFrom: 'server',
      },
      tracking: null,
      handshake: null,
      era: null,
      containment: records,
      forcedContainment: true,
      durationMs: 4200,
      key: 'leaky/in-flight/crash',
      incident: expect.objectContaining({
        followUp: expect.arrayContaining(['process 5001 (sleep 1000) outlived its client: it has been contained']),
        // Without /proc facts (no handshake here) the diagnosis says what the log shows, and no runtime's fix.
        diagnosis: [
          {
            check: 'exit-on-eof',
            cause: 'the server exited on its own 1200 ms after losing its client, past the 1000 ms deadline',
            observed: ['SDK: runtime and SDK not read (the handshake did not complete, or an older log)'],
            sdk: null,
            fix: 'its shutdown takes 1200 ms: end what it waits for at stdin end (a drain, a flush, a timer) within 1000 ms, or, if that wait is intended, raise expect.exit-on-eof.deadline above 1200 ms',
          },
          {
            check: 'no-survivors',
            cause: '1 process the server started outlived it: the server exited on EOF without ending its child',
            observed: [
              'pid 5001: first seen at the snapshot: sleep 1000; in process group 4242',
              'the server (pid 4242) had exited',
              'SDK: runtime and SDK not read (the handshake did not complete, or an older log)',
            ],
            sdk: null,
            fix: 'the server exits without ending its child: end the children it starts (or their process group) when stdin ends, before it exits',
          },
        ],
      }),
      evidence: null,
    });
  });

  it('sets forcedContainment only when some record needed SIGKILL, across several containment events', () => {
    const gentle = passingDrill()
      .containment(1900, [containmentRecord({ forced: false })])
      .containment(1950, [containmentRecord({ pid: 5002, forced: false })]);
    const gentleResult = judge(gentle.build());
    expect(gentleResult.forcedContainment).toBe(false);
    expect(gentleResult.containment.map((r) => r.pid)).toEqual([5001, 5002]);
    const forced = passingDrill()
      .containment(1900, [containmentRecord({ forced: false })])
      .containment(1950, [containmentRecord({ pid: 5002, endedBy: 'SIGKILL', forced: true })]);
    expect(judge(forced.build()).forcedContainment).toBe(true);
  });

  it('gives unknown and a zero duration for a lone drill-start, error when the harness failed', () => {
    const result = judge(new EvidenceBuilder().start(1000).build());
    expect(result.verdict).toBe('unknown');
    expect(result.durationMs).toBe(0);
    const errored = judge(new EvidenceBuilder().start(1000).harnessError(1300, 'spawn', 'spawn node ENOENT').build());
    expect(errored).toMatchObject({ verdict: 'error', reason: 'spawn: spawn node ENOENT', exit: null, durationMs: 300 });
  });
});
