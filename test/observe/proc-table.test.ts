import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import {
  FULL_READ_EVERY,
  onProcTable,
  procTableReads,
  procTableSince,
  procTableUpdates,
  readProcTable,
  updateProcTable,
  type ProcTable,
} from '../../harness/observe/proc-table.js';
import { readStat } from '../../harness/observe/proc.js';
import { DrillTracker } from '../../harness/observe/tracker.js';
import { monoNow } from '../../harness/util/clock.js';

describe('the shared process table', () => {
  it('holds every process with its stat line, this one included', () => {
    const table = readProcTable();
    expect(table.stats.get(process.pid)).toMatchObject({ pid: process.pid, startTime: readStat(process.pid)!.startTime });
    expect(table.stats.get(process.ppid)?.pid).toBe(process.ppid);
  });

  it('hands out the latest read when it is recent enough, and reads afresh otherwise', () => {
    const first = readProcTable();
    const before = procTableReads();
    expect(procTableSince(first.at)).toBe(first);
    expect(procTableReads()).toBe(before);
    const fresh = procTableSince(monoNow() + 1);
    expect(fresh).not.toBe(first);
    expect(fresh.at).toBeGreaterThan(first.at);
    expect(procTableReads()).toBe(before + 1);
  });

  it('gives every subscriber of an interval the same read in a tick, and stops once none is left', async () => {
    const seen: [string, ProcTable][] = [];
    const stopA = onProcTable(7, (t) => seen.push(['a', t]));
    const stopB = onProcTable(7, (t) => seen.push(['b', t]));
    await new Promise<void>((resolve) => {
      const check = onProcTable(7, () => {
        if (seen.length >= 6) {
          check();
          resolve();
        }
      });
    });
    stopA();
    stopB();
    // Ticks alternate a, b: each pair shares one table, and each tick's table is newer.
    for (let i = 0; i + 1 < seen.length; i += 2) {
      expect(seen[i][0]).toBe('a');
      expect(seen[i + 1]).toEqual(['b', seen[i][1]]);
      if (i >= 2) expect(seen[i][1].at).toBeGreaterThan(seen[i - 2][1].at);
    }
    const count = seen.length;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(seen.length).toBe(count);
  });

  it('lets trackers of concurrent drills share one read per tick', async () => {
    const root = { pid: process.pid, startTime: readStat(process.pid)!.startTime };
    const trackers = [1, 2, 3, 4].map((i) => new DrillTracker({ drillId: `cd-20260101T000000-abcdef.${i}`, root, sampleIntervalMs: 9 }).start());
    const ticks: number[] = [];
    const reads: number[] = [];
    await new Promise<void>((resolve) => {
      const stop = onProcTable(9, () => {
        ticks.push(1);
        reads.push(procTableReads());
        if (ticks.length === 10) {
          stop();
          resolve();
        }
      });
    });
    for (const t of trackers) t.stop();
    // Four trackers and this subscriber, one read per tick: the count grows by one from tick to tick.
    for (let i = 1; i < reads.length; i++) expect(reads[i] - reads[i - 1]).toBe(1);
    expect(trackers.every((t) => t.sampleStats().samples >= 10)).toBe(true);
  });
  it('a partial read re-reads new pids and the ones asked for, and keeps the last line of the others', async () => {
    const before = readProcTable();
    const child = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const asked = process.pid;
      const kept = process.ppid;
      const next = updateProcTable(new Set([asked]));
      // The new process is read at once; the one asked for is read again; the other keeps its line.
      expect(before.stats.has(child.pid!)).toBe(false);
      expect(next.stats.get(child.pid!)?.pid).toBe(child.pid);
      expect(next.stats.get(asked)).not.toBe(before.stats.get(asked));
      expect(next.stats.get(kept)).toBe(before.stats.get(kept));
      // A process gone since is dropped, whatever was asked.
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      expect(updateProcTable(new Set()).stats.has(child.pid!)).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it(`ticks of subscribers that name their pids read partially, and in full every ${FULL_READ_EVERY}th tick`, async () => {
    const fulls = procTableReads();
    const partials = procTableUpdates();
    let ticks = 0;
    await new Promise<void>((resolve) => {
      const stop = onProcTable(
        11,
        () => {
          if (++ticks === 2 * FULL_READ_EVERY) {
            stop();
            resolve();
          }
        },
        () => [process.pid],
      );
    });
    expect(procTableReads() - fulls).toBe(2);
    expect(procTableUpdates() - partials).toBe(2 * FULL_READ_EVERY - 2);
  });
});
