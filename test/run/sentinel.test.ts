/**
 * The run's sentinel (harness/run/sentinel.ts) as a process: one per run, perl in front of the
 * Node sweep where perl is on PATH, Node alone without it; and "done" ends it. What it does once its harness died is
 * test/last/no-leftovers.test.ts (a run killed with SIGKILL, each way).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findPerl } from '../../harness/drill/holder.js';
import { PERL_WAIT, sentinelCommand, startSentinel } from '../../harness/run/sentinel.js';
import { distFile } from '../../harness/util/paths.js';
import { until } from '../support/markers.js';

/** The pids of processes whose command line names dist/bin/sentinel.js and this run id. */
function sentinels(runId: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('bin/sentinel.js')) && argv.includes(runId)) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

const runIdFor = (): string => `cd-sentinel-test-${randomBytes(4).toString('hex')}`;

describe("the run's sentinel", () => {
  it('one process from its start, perl where perl is on PATH, and "done" ends it', async () => {
    const runId = runIdFor();
    const sentinel = startSentinel(runId);
    try {
      const [pid] = await until(() => (sentinels(runId).length > 0 ? sentinels(runId) : null), 10_000, 'the sentinel');
      expect(sentinels(runId)).toEqual([pid]);
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toBe(findPerl() ?? process.execPath);
    } finally {
      sentinel.release();
    }
    await until(() => sentinels(runId).length === 0, 10_000, 'the released sentinel to exit');
  });

  it('waits as perl in front of the Node sweep where perl is on PATH, and is Node alone without perl', () => {
    const main = distFile('bin/sentinel.js');
    expect(sentinelCommand(main, 'cd-x', '/usr/bin/perl')).toEqual(['/usr/bin/perl', ['-e', PERL_WAIT, process.execPath, main, 'cd-x', '--now']]);
    expect(sentinelCommand(main, 'cd-x', null)).toEqual([process.execPath, [main, 'cd-x']]);
  });
});
