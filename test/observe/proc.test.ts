import { copyFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { monoNow } from '../../harness/util/clock.js';
import { identify, isAlive, listPids, parseStat, procState, readCmdline, readEnviron, readStat, startTimeToMono } from '../../harness/observe/index.js';
import { keptStatFdCount, MAX_KEPT_STAT_FDS } from '../../harness/observe/proc.js';
import { readProcTable } from '../../harness/observe/proc-table.js';
import { envWith, start } from './helpers.js';
import { Cleanup } from '../support/cleanup.js';
import { tempDir } from '../support/temp-dir.js';
import { signalIdentity } from '../../harness/containment/signal.js';

/** This process's descriptors open on /proc/<pid>/stat. */
function statFdsOf(pid: number): string[] {
  const out: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === `/proc/${pid}/stat`) out.push(fd);
    } catch {
      // closed meanwhile (readdir's own descriptor)
    }
  }
  return out;
}

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('/proc reading', () => {
  it('parses a comm holding spaces and parentheses by splitting at the last ")"', async () => {
    const dir = tempDir('observe-comm-');
    try {
      const odd = join(dir, 'a) b (c');
      copyFileSync('/bin/sleep', odd);
      const p = start(cleanup, odd, ['300'], { stdio: 'ignore' });
      const stat = readStat(p.id.pid);
      expect(stat).not.toBeNull();
      expect(stat!.comm).toBe('a) b (c');
      expect(stat!.ppid).toBe(process.pid);
      expect(stat!.state).toMatch(/^[RS]$/);
      expect(stat!.startTime).toBe(p.id.startTime);
      expect(readCmdline(p.id.pid)).toEqual([odd, '300']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses a synthetic stat line field by field', () => {
    const fields = Array.from({ length: 50 }, (_, i) => String(i + 3));
    fields[0] = 'Z';
    const s = parseStat(`42 (x ) y) ${fields.join(' ')}\n`)!;
    expect(s).toMatchObject({ pid: 42, comm: 'x ) y', state: 'Z', ppid: 4, pgid: 5, sid: 6, cpuTicks: 14 + 15, startTime: 22, exitCode: 52 });
    expect(parseStat('garbage')).toBeNull();
  });

  it('lists pids and reads environ and cmdline; null for a gone process', async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore', env: envWith({ OBSERVE_T: 'x=y' }) });
    expect(listPids()).toContain(p.id.pid);
    expect(listPids()).toContain(process.pid);
    expect(readEnviron(p.id.pid)!.get('OBSERVE_T')).toBe('x=y');
    p.child.kill('SIGKILL');
    await new Promise((r) => p.child.once('exit', r));
    expect(readEnviron(p.id.pid)).toBeNull();
    expect(readCmdline(p.id.pid)).toBeNull();
    expect(readStat(p.id.pid)).toBeNull();
  });

  it('converts a start time to monoNow() milliseconds within 20 ms', async () => {
    const t0 = monoNow();
    const p = start(cleanup, process.execPath, ['-e', 'console.log(Number(process.hrtime.bigint()) / 1e6)']);
    const t1 = monoNow();
    const childNow = Number(await p.nextLine());
    const startMono = startTimeToMono(p.id.startTime);
    // A tick is 10 ms and the kernel truncates, so the start can read up to one tick early.
    expect(startMono).toBeGreaterThanOrEqual(t0 - 20);
    expect(startMono).toBeLessThanOrEqual(t1 + 20);
    expect(startMono).toBeLessThanOrEqual(childNow);
  });
});

describe('identity', () => {
  it('is alive, then a zombie, then gone; a wrong start time is never alive', async () => {
    // sh execs into sleep, which never reaps: the short child stays a zombie once it ends.
    const p = start(cleanup, 'sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 300']);
    const zombiePid = Number(await p.nextLine());
    const zid = identify(zombiePid);
    expect(zid).not.toBeNull();
    cleanup.track(zid);
    expect(procState(p.id)).toBe('alive');
    expect(isAlive(p.id)).toBe(true);
    expect(isAlive({ pid: p.id.pid, startTime: p.id.startTime + 1 })).toBe(false);
    expect(procState({ pid: p.id.pid, startTime: p.id.startTime - 1 })).toBe('gone');

    await expect.poll(() => procState(zid!), { timeout: 10_000 }).toBe('zombie');
    // kill(pid, 0) succeeds on a zombie: it is no evidence of life.
    expect(() => process.kill(zombiePid, 0)).not.toThrow();
    expect(isAlive(zid!)).toBe(false);

    p.child.kill('SIGKILL');
    await new Promise((r) => p.child.once('exit', r));
    expect(procState(p.id)).toBe('gone');
    expect(identify(p.id.pid)?.startTime === p.id.startTime).toBe(false);
  });

  it('keeps one stat descriptor per process, reads a zombie through it, and drops it once the process is reaped', async () => {
    // sh starts a short sleep, prints its pid and becomes a long sleep that never reaps it: a zombie to be.
    const parent = start(cleanup, 'sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 300']);
    const pid = Number(await parent.nextLine());
    expect(readStat(pid)?.state).toMatch(/^[RSD]$/);
    expect(statFdsOf(pid)).toHaveLength(1);
    const deadline = monoNow() + 10_000;
    while (readStat(pid)?.state !== 'Z' && monoNow() < deadline) await new Promise((r) => setTimeout(r, 10));
    // The same descriptor, the zombie's line: nothing was opened again.
    expect(readStat(pid)?.state).toBe('Z');
    expect(statFdsOf(pid)).toHaveLength(1);
    // The parent's end hands the zombie to a reaper: after that the kept descriptor reads nothing (ESRCH), and is closed.
    signalIdentity(parent.id, 'SIGKILL');
    await new Promise((r) => parent.child.once('exit', r));
    while (readStat(pid) !== null && monoNow() < deadline + 10_000) await new Promise((r) => setTimeout(r, 10));
    expect(readStat(pid)).toBeNull();
    expect(statFdsOf(pid)).toEqual([]);
    expect(keptStatFdCount()).toBeLessThanOrEqual(MAX_KEPT_STAT_FDS);
  });

  it('a full read of the table closes the kept descriptors of processes that are gone', async () => {
    const p = start(cleanup, 'sleep', ['300'], { stdio: 'ignore' });
    expect(readStat(p.id.pid)).not.toBeNull();
    expect(statFdsOf(p.id.pid)).toHaveLength(1);
    signalIdentity(p.id, 'SIGKILL');
    await new Promise((r) => p.child.once('exit', r));
    // Not read again: only the listing tells that it is gone.
    readProcTable();
    expect(statFdsOf(p.id.pid)).toEqual([]);
  });
});
