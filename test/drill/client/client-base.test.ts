/**
 * The parts both drill clients share (harness/drill/client/client-base.ts): the events and their
 * waiters, the client's exit, the holder's report and its control pipe, on real processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ClientEvent } from '../../../harness/shared/protocol.js';
import { ClientEvents, endControl, HolderReport, pipeText } from '../../../harness/drill/client/client-base.js';

const ready = (pid: number): ClientEvent => ({ type: 'client-ready', t: 0, pid });
const isReady = (event: ClientEvent) => event.type === 'client-ready';

/** `sh -c script` with every stdio a pipe; its exit, awaited by the test, is its end. */
function sh(script: string): ChildProcess {
  return spawn('/bin/sh', ['-c', script], { stdio: ['pipe', 'pipe', 'pipe'] });
}

describe('ClientEvents', () => {
  it('hands an event to the handler before a waiter gets it, and counts events that already arrived', async () => {
    const order: string[] = [];
    const events = new ClientEvents((event) => order.push(`handler ${event.type}`));
    const waiting = events.waitFor(isReady, 10_000).then((event) => order.push(`waiter ${event?.type}`));
    events.add(ready(7));
    await waiting;
    expect(order).toEqual(['handler client-ready', 'waiter client-ready']);
    expect(await events.waitFor(isReady, 0)).toEqual(ready(7));
  });

  it('gives null on timeout, and to every waiter once the client exited; an arrived event still counts after', async () => {
    const events = new ClientEvents(() => {});
    expect(await events.waitFor(isReady, 1)).toBeNull();
    events.add({ type: 'setup-done', t: 0, steps: 0 });
    const pending = events.waitFor(isReady, 10_000);
    expect(events.exited).toBe(false);
    events.clientExited();
    events.clientExited();
    expect(events.exited).toBe(true);
    expect(await pending).toBeNull();
    expect(await events.waitFor(isReady, 10_000)).toBeNull();
    expect(await events.waitFor((e) => e.type === 'setup-done', 10_000)).toMatchObject({ type: 'setup-done' });
  });

  it('is closed once the client exited and the stderr pipe closed, or at the deadline', async () => {
    const events = new ClientEvents(() => {});
    const child = sh('echo last words >&2');
    let text = '';
    pipeText(child.stderr, (chunk) => (text += chunk));
    child.on('exit', () => events.clientExited());
    // No deadline reached here: 10 s is far beyond what sh takes.
    await events.closed(child.stderr, 10_000);
    expect(events.exited).toBe(true);
    expect(child.stderr!.destroyed).toBe(true);
    expect(text).toBe('last words\n');

    const never = new ClientEvents(() => {});
    await never.closed(null, 1);
    expect(never.exited).toBe(false);
  });
});

describe('HolderReport', () => {
  it('reads the report lines, names the holder on spawn and says when its child exited', async () => {
    const report = new HolderReport();
    // The holder stays until its stdin closes, so it is alive when it is identified.
    const holder = sh('printf "subreaper 0 no prctl\\nchild 4242\\nexit - 9 37\\nwatchdog 3\\n"; cat >/dev/null');
    let exits = 0;
    report.read(holder, () => exits++);
    await report.known(10_000);
    expect(report.state).toMatchObject({ subreaper: { ok: false, reason: 'no prctl' }, clientPid: 4242 });
    endControl(holder.stdin);
    // 'close' comes after the last report line was read ('exit' may come before).
    await once(holder, 'close');
    expect(report.state.identity).toMatchObject({ pid: holder.pid });
    expect(report.state.watchdogSignalled).toBe(3);
    // The client's own CPU, in clock ticks, read by the holder from its zombie.
    expect(report.state.clientCpuTicks).toBe(37);
    expect(exits).toBe(1);
  });

  it('is known once the holder is gone without naming a child, and not before the deadline while it is silent', async () => {
    const gone = new HolderReport();
    const quiet = sh('exit 0');
    const quietExit = once(quiet, 'exit');
    gone.read(quiet, () => {});
    await gone.known(10_000);
    await quietExit;
    expect(gone.state.clientPid).toBeNull();

    const silent = new HolderReport();
    const holder = sh('cat >/dev/null');
    silent.read(holder, () => {});
    await silent.known(1);
    expect(silent.state).toMatchObject({ subreaper: null, clientPid: null });
    endControl(holder.stdin);
    await once(holder, 'exit');
  });
});

describe('endControl', () => {
  it('ends the control pipe with "done" or bare, and leaves a closed one alone', async () => {
    for (const [text, expected] of [
      ['done\n', 'done\n'],
      [undefined, ''],
    ] as const) {
      const holder = sh('cat');
      let out = '';
      pipeText(holder.stdout, (chunk) => (out += chunk));
      endControl(holder.stdin, text);
      await once(holder, 'close');
      expect(out).toBe(expected);
    }
    const holder = sh('cat');
    holder.stdin!.destroy();
    expect(() => endControl(holder.stdin)).not.toThrow();
    expect(() => endControl(null)).not.toThrow();
    await once(holder, 'exit');
  });
});
