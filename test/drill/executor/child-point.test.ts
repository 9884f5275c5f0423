/**
 * ChildPick, driven sample by sample without processes: which new descendant the child-spawned
 * point fires on, and why none when it fires on none.
 */
import { describe, expect, it } from 'vitest';
import type { ChildSpec } from '../../../harness/config/index.js';
import { ChildPick } from '../../../harness/drill/executor/child-point.js';
import type { TrackedProcess } from '../../../harness/observe/index.js';

const SERVER = ['node', 'server.js'];

function proc(pid: number, ppid: number, cmdline: string[]): TrackedProcess {
  return { pid, startTime: pid * 10, ppid, pgid: 1, sid: 1, comm: '', cmdline, firstSeen: 0, exitedAt: null, foundBy: ['parent-links'] };
}

/** A pick whose argv reads come from the table the test holds (as /proc would give them). */
function picker(spec: Partial<ChildSpec> = {}) {
  const argv = new Map<number, string[]>();
  const pick = new ChildPick(
    { command: null, pattern: null, aliveFor: 200, ...spec },
    new Set([`1:10`]),
    () => ({ pid: 1, startTime: 10 }),
    (pid) => argv.get(pid) ?? null,
  );
  const server = proc(1, 0, SERVER);
  const see = (now: number, ...children: TrackedProcess[]) => {
    for (const c of children) argv.set(c.pid, c.cmdline);
    return pick.see([server, ...children], now);
  };
  return { pick, see };
}

describe('ChildPick', () => {
  it('waits out a fork until it execs, then the window, at a later sample', () => {
    const { see } = picker();
    expect(see(0, proc(5, 1, SERVER))).toBeNull();
    expect(see(300, proc(5, 1, SERVER))).toBeNull();
    expect(see(302, proc(5, 1, ['sleep', '300']))).toBeNull(); // exec seen here: the window starts
    expect(see(400, proc(5, 1, ['sleep', '300']))).toBeNull();
    expect(see(502, proc(5, 1, ['sleep', '300']))).toEqual({ pid: 5, startTime: 50, cmdline: ['sleep', '300'], aliveMs: 200 });
  });

  it('leaves out a probe that exits inside the window, and takes the child after it', () => {
    const { see, pick } = picker();
    expect(see(0, proc(4, 1, ['sh', '-c', 'exit 0']))).toBeNull();
    expect(see(5)).toBeNull();
    expect(pick.whyNot()).toBe('no new descendant ran a program of its own for 200 ms: pid 4 (sh -c exit 0) exited 5 ms after its exec was seen');
    expect(see(10, proc(6, 1, ['chrome', '--headless']))).toBeNull();
    expect(see(210, proc(6, 1, ['chrome', '--headless']))?.pid).toBe(6);
  });

  it("does not count a fork of a child that carries that child's argv", () => {
    const { see } = picker();
    const sh = proc(5, 1, ['sh', '-c', 'a; b']);
    expect(see(0, sh, proc(7, 5, ['sh', '-c', 'a; b']))).toBeNull();
    // Both alive past the window: the shell counts, its fork does not.
    expect(see(250, sh, proc(7, 5, ['sh', '-c', 'a; b']))?.pid).toBe(5);
  });

  it('with aliveFor 0 fires at the next sample after the exec, not the same one', () => {
    const { see } = picker({ aliveFor: 0 });
    expect(see(0, proc(5, 1, ['sleep', '300']))).toBeNull();
    expect(see(2, proc(5, 1, ['sleep', '300']))?.aliveMs).toBe(2);
  });

  it('takes only the named program: by argv[0], its basename, or a pattern of the command line', () => {
    const tail = proc(5, 1, ['tail', '-f', '/dev/null']);
    const sleep = proc(6, 1, ['/usr/bin/sleep', '300']);
    const byName = picker({ command: 'sleep' });
    expect(byName.see(0, tail, sleep)).toBeNull();
    expect(byName.see(200, tail, sleep)?.pid).toBe(6);
    const byPath = picker({ command: '/usr/bin/sleep' });
    byPath.see(0, tail, sleep);
    expect(byPath.see(200, tail, sleep)?.pid).toBe(6);
    const byPattern = picker({ pattern: 'sleep [0-9]{3}$' });
    byPattern.see(0, tail, sleep);
    expect(byPattern.see(200, tail, sleep)?.pid).toBe(6);
    const none = picker({ command: 'chrome' });
    none.see(0, tail);
    expect(none.see(500, tail)).toBeNull();
    expect(none.pick.whyNot()).toBe('no new descendant ran `chrome` for 200 ms: pid 5 (tail -f /dev/null) is not `chrome`');
  });

  it('says when nothing new appeared, and ignores what was there before the call', () => {
    const { see, pick } = picker();
    expect(see(0)).toBeNull();
    expect(pick.whyNot()).toBe('no new descendant appeared after the target call was dispatched');
  });
});
