/**
 * The stand-in spawns the server as the drill's client profile spawns it (stand-in.pl): in its
 * own process group (same), a group of its own (setpgid), or a session of its own (setsid), and
 * with the parent-death signal set before the exec, so the kernel sends it when the stand-in
 * dies (Goose's crash). Each fact shown on the server's /proc stat, the death signal both ways:
 * set, the server dies of SIGTERM with the stand-in; not set, it lives on.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { goLine } from '../../../harness/drill/holder/holder.js';
import { startSpareHolder } from '../../../harness/drill/holder/holder-pool.js';
import { STAND_IN_COMMAND, STAND_IN_FDS } from '../../../harness/drill/client/in-process-client.js';
import { decodeWaitStatus, identify, readStat, type ProcIdentity } from '../../../harness/observe/index.js';
import { signalIdentity } from '../../../harness/containment/signal.js';
import { prctlArgument } from '../../../harness/util/perl.js';
import { lineOf } from '../../support/line-of.js';
import { until } from '../../support/until.js';

let holder: ChildProcess | null = null;
const started: ProcIdentity[] = [];
afterEach(async () => {
  for (const id of started.splice(0)) signalIdentity(id, 'SIGKILL');
  if (holder && holder.exitCode === null && holder.signalCode === null) {
    const gone = new Promise((resolve) => holder!.once('exit', resolve));
    holder.stdin!.end('done\n');
    await gone;
  }
  holder = null;
});

/** holder -> stand-in -> `sleep 30`, spawned with these facts; the stand-in's and the server's identities. */
async function spawnWith(group: string, deathSignal: number): Promise<{ standIn: ProcIdentity; server: ProcIdentity }> {
  holder = startSpareHolder(STAND_IN_COMMAND, STAND_IN_FDS)!;
  const reports = (holder.stdio as unknown as Readable[])[6];
  const self = lineOf(reports, /^self (\d+)$/);
  const spawned = lineOf(reports, /^spawned (\d+)$/);
  holder.stdin!.write(
    goLine('', '', '', { PATH: process.env.PATH ?? '/usr/bin:/bin' }, [process.cwd(), group, String(deathSignal), prctlArgument(), '--', 'sleep', '30']),
  );
  const standIn = identify(Number((await self)[1]))!;
  const server = identify(Number((await spawned)[1]))!;
  started.push(server, standIn);
  return { standIn, server };
}

describe("the stand-in spawns as the profile's client does", () => {
  it.each([
    ['same', (s: { pgid: number; sid: number; pid: number }, p: { pgid: number; sid: number }) => s.pgid === p.pgid && s.sid === p.sid],
    ['own-group', (s: { pgid: number; sid: number; pid: number }, p: { pgid: number; sid: number }) => s.pgid === s.pid && s.sid === p.sid],
    ['own-session', (s: { pgid: number; sid: number; pid: number }) => s.sid === s.pid && s.pgid === s.pid],
  ])('%s', async (group, holds) => {
    const { standIn, server } = await spawnWith(group, 0);
    expect(holds(readStat(server.pid)!, readStat(standIn.pid)!)).toBe(true);
  });

  it('a parent-death signal: SIGTERM reaches the server as the stand-in dies', async () => {
    const { standIn, server } = await spawnWith('own-group', 15);
    expect(signalIdentity(standIn, 'SIGKILL')).toBe('sent');
    await until('the server to die', () => readStat(server.pid)?.state === 'Z', 5000);
    expect(decodeWaitStatus(readStat(server.pid)!.exitCode)).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('without one, the server lives on when the stand-in dies', async () => {
    const { standIn, server } = await spawnWith('own-group', 0);
    expect(signalIdentity(standIn, 'SIGKILL')).toBe('sent');
    await until('the server to be re-parented to the holder', () => readStat(server.pid)?.ppid === holder!.pid, 5000);
    expect(readStat(server.pid)?.state).not.toBe('Z');
  });
});
