/** Run results built from synthetic evidence through the real judge, for the reporter tests. */
import { judge } from '../../harness/results/judge.js';
import type { DrillResult, RunResults } from '../../harness/results/types.js';
import { EvidenceBuilder, passingDrill } from '../checks/evidence-builder.js';
import { summarize } from '../../harness/results/summary.js';

const RUN = 'cd-20260101T000000-abcdef';

export function passed(): DrillResult {
  return judge(passingDrill({ drillId: `${RUN}-0000` }).build());
}

export function failed(): DrillResult {
  return judge(
    new EvidenceBuilder({ drillId: `${RUN}-0001`, point: 'in-flight', mode: 'close' })
      .start(1000)
      .spawned(1010)
      .stdoutNoise(1020, 'listening')
      .handshake(1100)
      .rpcIn(1100)
      .pointReached(1200)
      .clientLost(1200, 'close', 'stdin closed')
      .stopStep(1200, 'close-stdin')
      .serverExit(1230, { code: 0 })
      .snapshot(1700, [])
      .end(1800)
      .build(),
  );
}

/** A child-spawned drill that passed, the point fired on the call's `sleep 300`. */
export function childSpawned(): DrillResult {
  return judge(
    new EvidenceBuilder({ drillId: `${RUN}-0004`, point: 'child-spawned' })
      .start(1000)
      .spawned(1010)
      .handshake(1100)
      .rpcIn(1100)
      .pointReached(1200, 'child-spawned', 'pid 5151 (sleep 300)', {
        pid: 5151,
        startTime: 123_456,
        cmdline: ['sleep', '300'],
        sinceDispatchMs: 20,
        aliveMs: 204,
      })
      .clientLost(1200)
      .serverExit(1250, { code: 0 })
      .snapshot(1700, [])
      .end(1800)
      .build(),
  );
}

export function unknown(): DrillResult {
  return judge(
    new EvidenceBuilder({ drillId: `${RUN}-0002`, scenario: 'remote', point: 'sent' })
      .start(1000)
      .pointTimeout(6000, 'sent', 5000, 'the remote never saw the request')
      .end(6250)
      .build(),
  );
}

export function errored(): DrillResult {
  return judge(new EvidenceBuilder({ drillId: `${RUN}-0003`, scenario: 'broken' }).start(1000).harnessError(1040, 'spawn', 'spawn nope ENOENT').build());
}

export function runResults(drills: DrillResult[], extra: Partial<RunResults> = {}): RunResults {
  return {
    version: 1,
    harness: { name: 'mcp-crash-drill', version: '0.1.0' },
    runId: RUN,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:09.000Z',
    interrupted: false,
    summary: summarize(drills),
    stale: [],
    drills,
    ...extra,
  };
}
