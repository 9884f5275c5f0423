/**
 * The one executor of every client's stop sequence (harness/shared/stop-steps.ts), over a real
 * process group: a server (sh) that leads a group of its own with a child in it. Each kind of
 * step and condition is shown both ways: a group signal reaches the child the direct child
 * left behind; an escalation hung on a first signal (`onlyIfSent`, the Python SDK's) is skipped
 * when that signal never went, and taken when it did. OpenCode's descendant sweep reaches the
 * server's child and not the server; an abandon step sends nothing at all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { StopStep } from '../../harness/client-profiles/profiles.js';
import { behaviourOf } from '../../harness/client-profiles/profiles.js';
import { signalIdentity } from '../../harness/containment/signal.js';
import { identify, isAlive, type ProcIdentity } from '../../harness/observe/identity.js';
import { descendantMembers, groupMembers } from '../../harness/shared/process-reach.js';
import type { ClientEvent } from '../../harness/shared/protocol.js';
import { runStopSteps, type StopHold } from '../../harness/shared/stop-steps.js';
import { until } from '../support/until.js';

const started: ProcIdentity[] = [];
afterEach(() => {
  for (const id of started.splice(0)) signalIdentity(id, 'SIGKILL');
});

/** sh in a group of its own (detached: setsid) that starts `sleep 60` in its group, and exits on EOF when `exitOnEof`. */
async function server(exitOnEof: boolean): Promise<{ child: ChildProcess; hold: StopHold; leader: ProcIdentity }> {
  const script = exitOnEof ? 'sleep 60 & cat >/dev/null; exit 0' : 'sleep 60 & trap "" TERM; while :; do sleep 1; done';
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  const leader = identify(child.pid!)!;
  started.push(leader);
  await until('its sleep to start', () => groupMembers(leader.pid).length >= 2, 5000);
  for (const m of groupMembers(leader.pid)) started.push(m);
  let exited = false;
  child.once('exit', () => (exited = true));
  const hold: StopHold = {
    child: () => leader,
    childExited: () => exited,
    childExit: (ms) =>
      new Promise((resolve) => {
        if (exited) return resolve(true);
        const timer = setTimeout(() => resolve(false), ms);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      }),
    closeStdin: () => child.stdin!.end(),
    ownGroup: true,
  };
  return { child, hold, leader };
}

async function run(steps: readonly StopStep[], hold: StopHold) {
  const events: ClientEvent[] = [];
  await runStopSteps(steps, hold, (e) => events.push(e));
  return events.flatMap((e) => (e.type === 'stop-step' ? [[e.step.kind, e.result]] : e.type === 'stop-done' ? [['done']] : []));
}

describe('runStopSteps', () => {
  it("the Python SDK's stop: a server that exits on EOF leaves its group alone (the escalation hangs on the SIGTERM)", async () => {
    const { hold, leader } = await server(true);
    const steps = behaviourOf('python-sdk').stop;
    expect(await run(steps, hold)).toEqual([
      ['close-stdin', 'done'],
      ['wait-ms', 'ended-early'],
      ['signal', 'skipped'],
      ['wait-ms', 'skipped'],
      ['signal', 'skipped'],
      ['done'],
    ]);
    expect(groupMembers(leader.pid)).toHaveLength(1); // its sleep, left behind, as the real SDK leaves it
  });

  it('the other way: a server that outlives the first wait gets the whole escalation, and its group is gone', async () => {
    const { hold, leader } = await server(false);
    const steps: StopStep[] = behaviourOf('python-sdk').stop.map((s) => (s.kind === 'wait-ms' ? { ...s, ms: 300 } : s));
    const said = await run(steps, hold);
    expect(said.slice(0, 3)).toEqual([
      ['close-stdin', 'done'],
      ['wait-ms', 'ran-out'],
      ['signal', 'sent'],
    ]);
    // sh ignores SIGTERM here: the group poll runs out and the SIGKILL goes to the group.
    expect(said.slice(3)).toEqual([['wait-ms', 'ran-out'], ['signal', 'sent'], ['done']]);
    await until('the group to be gone', () => groupMembers(leader.pid).length === 0, 5000);
    expect(isAlive(leader)).toBe(false);
  });

  it("a group step of a server with no group of its own is refused, never sent to the client's group", async () => {
    const { hold } = await server(true);
    expect(await run([{ kind: 'signal', name: 'SIGKILL', to: 'group', onlyIfAlive: null }], { ...hold, ownGroup: false })).toEqual([
      ['signal', 'refused'],
      ['done'],
    ]);
  });

  it("OpenCode's sweep: SIGTERM to the descendants reaches the server's child, never the server itself", async () => {
    // sh starts sleep 60, then becomes sleep 61 (exec): a server whose one child is the sleep 60.
    const child = spawn('sh', ['-c', 'sleep 60 & exec sleep 61'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    const leader = identify(child.pid!)!;
    started.push(leader);
    await until('its child to start', () => descendantMembers(leader).length === 1, 5000);
    const below = descendantMembers(leader);
    started.push(...below);
    expect(below.map((id) => id.pid)).not.toContain(leader.pid);
    const hold: StopHold = {
      child: () => leader,
      childExited: () => false,
      childExit: async () => false,
      closeStdin: () => child.stdin!.end(),
      ownGroup: true,
    };
    expect(await run([{ kind: 'signal', name: 'SIGTERM', to: 'descendants', onlyIfAlive: null }], hold)).toEqual([['signal', 'sent'], ['done']]);
    await until('the child to be gone', () => !isAlive(below[0]), 5000);
    // SIGTERM's default action would have ended sleep 61: alive, it was never signalled.
    expect(isAlive(leader)).toBe(true);
    expect(descendantMembers(leader)).toEqual([]);
  });

  it('an abandon step sends nothing: the server and its children live on, its stdin open', async () => {
    const { hold, leader } = await server(true);
    const members = groupMembers(leader.pid);
    expect(await run([{ kind: 'abandon' }], hold)).toEqual([['abandon', 'done'], ['done']]);
    expect(members.every((id) => isAlive(id))).toBe(true);
    // The other way: the same server ends at EOF, so what kept it alive was the stdin held open.
    expect(
      await run(
        [
          { kind: 'close-stdin', onlyIfAlive: null },
          { kind: 'wait-ms', ms: 5000, endsWhenGone: 'child' },
        ],
        hold,
      ),
    ).toEqual([['close-stdin', 'done'], ['wait-ms', 'ended-early'], ['done']]);
  });
});
