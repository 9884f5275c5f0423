/**
 * The run's sentinel (harness/registry/sentinel.ts) as a process: one per run, perl in front of the
 * Node sweep where perl is on PATH, Node alone without it; and "done" ends it. What it does once its harness died is
 * test/last/no-leftovers.test.ts (a run killed with SIGKILL, each way).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPerl } from '../../harness/util/perl.js';
import { perlWaitScript, sentinelCommand, startSentinel } from '../../harness/registry/sentinel.js';
import { distFile } from '../../harness/util/paths.js';
import { sentinelProcesses } from '../support/markers.js';
import { until } from '../support/until.js';

/** The pids of this run's live sentinel processes. */
const sentinels = (runId: string): number[] => sentinelProcesses(runId).map((p) => p.pid);

const runIdFor = (): string => `cd-sentinel-test-${randomBytes(4).toString('hex')}`;

describe("the run's sentinel", () => {
  it('one process from its start, perl where perl is on PATH, and "done" ends it', async () => {
    const runId = runIdFor();
    const sentinel = startSentinel(runId);
    try {
      const [pid] = await until('the sentinel', () => (sentinels(runId).length > 0 ? sentinels(runId) : null), 10_000);
      expect(sentinels(runId)).toEqual([pid]);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toBe(findPerl() ?? process.execPath);
    } finally {
      sentinel.release();
    }
    await until('the released sentinel to exit', () => sentinels(runId).length === 0, 10_000);
  });

  it('waits as perl in front of the Node sweep where perl is on PATH, and is Node alone without perl', () => {
    const main = distFile('bin/sentinel.js');
    expect(sentinelCommand(main, 'cd-x', '/usr/bin/perl')).toEqual(['/usr/bin/perl', ['-e', perlWaitScript(), process.execPath, main, 'cd-x', '--now']]);
    expect(sentinelCommand(main, 'cd-x', null)).toEqual([process.execPath, [main, 'cd-x']]);
  });
});
