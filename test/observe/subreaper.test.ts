/**
 * The two halves of issue-free tracking without root: a holder that is a child subreaper keeps
 * a setsid daemon with an empty environment attributable (membership method 'subreaper'), and
 * where there is neither a holder nor a cgroup such a daemon is reported as unattributed (the
 * floor), never silently ignored. Real processes: a perl holder, sh, setsid, env -i, sleep.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { holderCommand, holderEnv, holderUnavailable, parseHolderLine, type HolderState } from '../../harness/drill/holder/holder.js';
import { DrillTracker, identify, readCmdline, readStat, type ProcIdentity, type UnattributedProcess } from '../../harness/observe/index.js';
import { HolderReport } from '../../harness/drill/client/client-base.js';
import { envWith, start } from './helpers.js';
import { Cleanup, testDrillId } from '../support/cleanup.js';
import { until } from '../support/until.js';
import { signalIdentity } from '../../harness/containment/signal.js';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Every live process whose parent is `pid`. */
function childrenOf(pid: number, comm: string): ProcIdentity[] {
  const out: ProcIdentity[] = [];
  for (const name of procPids()) {
    const stat = readStat(Number(name));
    if (stat && stat.ppid === pid && stat.comm === comm && stat.state !== 'Z') out.push({ pid: stat.pid, startTime: stat.startTime });
  }
  return out;
}
function procPids(): string[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n));
}

if (holderUnavailable() !== null) console.log(`[skip] the holder (child subreaper): ${holderUnavailable()}`);
describe.skipIf(holderUnavailable() !== null)('the holder (child subreaper)', () => {
  it('takes in a setsid daemon with an empty environment when its parent dies; the tracker finds it by that alone', async () => {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    // The "client": forks setsid -f env -i sleep (setsid's parent exits at once), then waits.
    // As in a drill, the holder gives the marker to its client alone (holderEnv): a holder that
    // carried it would be a member whenever it started in the client's clock tick (start times
    // are in ticks, and nothing older than the root counts), and the daemon its child by parent links.
    const held = holderCommand('', ['/bin/sh', '-c', 'setsid -f env -i /bin/sleep 30 </dev/null >/dev/null 2>&1; exec /bin/sleep 30'], '', undefined, drillId)!;
    const holder = spawn(held[0], held[1], { detached: true, stdio: ['pipe', 'pipe', 'inherit'], env: holderEnv(envWith({})) });
    const holderId = identify(holder.pid!)!;
    cleanup.track(holderId);
    const state: HolderState = { identity: holderId, subreaper: null, clientPid: null, watchdogSignalled: null };
    let text = '';
    holder.stdout!.on('data', (d) => {
      text += d;
      for (const line of text.split('\n').slice(0, -1)) parseHolderLine(line, state);
      text = text.slice(text.lastIndexOf('\n') + 1);
    });
    try {
      await until('the holder to report its child', () => state.clientPid !== null);
      expect(state.subreaper).toEqual({ ok: true });
      const client = identify(state.clientPid!)!;
      cleanup.track(client);
      const daemons = () => childrenOf(holderId.pid, 'sleep').filter((p) => p.pid !== client.pid);
      const [daemon] = await until('the daemon to be re-parented to the holder', () => daemons().length > 0 && daemons());
      cleanup.track(daemon);
      expect(readStat(daemon.pid)!.sid).toBe(daemon.pid);

      const tracker = new DrillTracker({ drillId, root: client, cgroup: null, subreapers: [holderId] });
      const unattributed: UnattributedProcess[] = [];
      tracker.on('unattributed', (p) => unattributed.push(p));
      const members = tracker.sampleNow();
      const found = members.find((m) => m.pid === daemon.pid);
      expect(found?.foundBy).toEqual(['subreaper']);
      expect(tracker.tracking()).toMatchObject({ subreaper: holderId, floor: false });
      expect(tracker.tracking().methods).toContain('subreaper');
      expect(unattributed).toEqual([]);

      // The same daemon without the holder in the tracker's view: nothing links it, and the floor is off only with a subreaper.
      const blind = new DrillTracker({ drillId, root: client, cgroup: null });
      expect(blind.sampleNow().some((m) => m.pid === daemon.pid)).toBe(false);
    } finally {
      holder.stdin!.end('done\n');
    }
  });

  it('says "chld" when a process re-parented to it exits, with the process already a zombie, and not before', async () => {
    // The daemon is the holder's child only by re-parenting, as the server is after a crash.
    const held = holderCommand('', ['/bin/sh', '-c', 'setsid -f env -i /bin/sleep 32 </dev/null >/dev/null 2>&1; exec /bin/sleep 32'])!;
    const holder = spawn(held[0], held[1], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const holderId = identify(holder.pid!)!;
    cleanup.track(holderId);
    const report = new HolderReport();
    const seen: Array<string | undefined> = [];
    let daemon: ProcIdentity | undefined;
    report.read(
      holder,
      () => {},
      () => seen.push(daemon && readStat(daemon.pid)?.state),
    );
    try {
      await report.known(10_000);
      const client = identify(report.state.clientPid!)!;
      cleanup.track(client);
      const daemons = () => childrenOf(holderId.pid, 'sleep').filter((p) => p.pid !== client.pid);
      [daemon] = await until('the daemon to be re-parented to the holder', () => daemons().length > 0 && daemons());
      cleanup.track(daemon);
      expect(seen).toEqual([]);
      expect(signalIdentity(daemon, 'SIGKILL')).toBe('sent');
      await until('a chld line', () => seen.length > 0);
      // Read the moment the holder's line came: the holder reaps only its client, so the daemon stays a zombie.
      expect(seen[0]).toBe('Z');
    } finally {
      holder.stdin!.end('done\n');
    }
  });

  it('as a watchdog: EOF on its control pipe without "done" ends everything below it', async () => {
    const held = holderCommand('', ['/bin/sh', '-c', 'trap "" TERM; setsid -f env -i /bin/sleep 31 </dev/null >/dev/null 2>&1; exec /bin/sleep 31'])!;
    const holder = spawn(held[0], held[1], { detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const holderId = identify(holder.pid!)!;
    cleanup.track(holderId);
    let out = '';
    holder.stdout!.on('data', (d) => (out += d));
    const below = await until('two sleeps below the holder', () => childrenOf(holderId.pid, 'sleep').length === 2 && childrenOf(holderId.pid, 'sleep'));
    for (const id of below) cleanup.track(id);
    const exited = new Promise<number | null>((resolve) => holder.on('exit', (code) => resolve(code)));
    holder.stdin!.end();
    expect(await exited).toBe(0);
    expect(out).toMatch(/^watchdog 2$/m);
    for (const id of below) expect(readStat(id.pid)?.startTime === id.startTime && readStat(id.pid)?.state !== 'Z').toBe(false);
  });
});

describe('the floor (neither a cgroup nor a subreaper)', () => {
  it('reports a setsid daemon with an empty environment that appeared during the drill and that nothing links to it', async () => {
    const drillId = testDrillId();
    cleanup.trackDrill(drillId);
    const root = start(cleanup, '/bin/sleep', ['30'], { detached: true, env: envWith({ CRASH_DRILL_RUN: drillId }) });
    const tracker = new DrillTracker({ drillId, root: root.id, cgroup: null });
    const unattributed: UnattributedProcess[] = [];
    tracker.on('unattributed', (p) => unattributed.push(p));
    expect(tracker.tracking().floor).toBe(true);
    tracker.sampleNow();
    // A daemon of nobody the tracker knows: a shell (ours) runs setsid -f env -i; the shell exits.
    const sh = start(cleanup, '/bin/sh', ['-c', 'setsid -f env -i /bin/sleep 32.25 </dev/null >/dev/null 2>&1; echo ok'], { env: envWith({}) });
    await sh.nextLine();
    const daemon = await until('the daemon', () =>
      procPids()
        .map((n) => readStat(Number(n)))
        .find((s) => s && s.comm === 'sleep' && s.sid === s.pid && s.startTime >= root.id.startTime && s.state !== 'Z' && readCmdline(s.pid)?.[1] === '32.25'),
    );
    cleanup.track({ pid: daemon.pid, startTime: daemon.startTime });
    await until('the shell to exit', () => readStat(sh.id.pid)?.state === 'Z' || readStat(sh.id.pid) === null);
    tracker.sampleNow();
    const seen = unattributed.find((p) => p.pid === daemon.pid);
    expect(seen).toMatchObject({ pid: daemon.pid, startTime: daemon.startTime, sid: daemon.pid, cmdline: ['/bin/sleep', '32.25'] });
    expect(seen!.reason).toMatch(/re-parented|outside the harness/);
    // Reported once, not at every sample; and never a member (it is never signalled).
    tracker.sampleNow();
    expect(unattributed.filter((p) => p.pid === daemon.pid)).toHaveLength(1);
    expect(tracker.members().some((m) => m.pid === daemon.pid)).toBe(false);

    // A subreaper alive in the drill turns the floor off: nothing of the drill can leave its tree.
    const other = new DrillTracker({ drillId, root: root.id, cgroup: null, subreapers: [identify(process.pid)!] });
    const none: UnattributedProcess[] = [];
    other.on('unattributed', (p) => none.push(p));
    other.sampleNow();
    expect(other.tracking().floor).toBe(false);
    expect(none).toEqual([]);
  });
});
