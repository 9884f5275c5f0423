/**
 * The in-process client's stand-in (harness/drill/holder/stand-in.pl) reads its server's exit
 * status from the zombie and never reaps it. A crash closes the harness's ends of the server's
 * pipes and SIGKILLs the stand-in in one tick; a stand-in that reaped would, when the server
 * exits on that EOF before the stand-in is scheduled again, reap it with its SIGKILL pending
 * (the kernel's wait scans children before it looks at signals). The server's status was then
 * readable by nobody, and a drill of a server that exited 0 said `exit class unknown`: seen once
 * in a full run of the suite (server-memory idle/crash). Shown here on the mechanism: the status
 * is reported and the zombie stays, under the stand-in, then under the holder once the stand-in
 * is killed, until the holder is told the drill is over.
 */
import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { goLine } from '../../../harness/drill/holder/holder.js';
import { startSpareHolder } from '../../../harness/drill/holder/holder-pool.js';
import { STAND_IN_COMMAND, STAND_IN_FDS } from '../../../harness/drill/client/in-process-client.js';
import { decodeWaitStatus, identify, pollExit, readStat, type ProcIdentity } from '../../../harness/observe/index.js';
import { signalIdentity } from '../../../harness/containment/signal.js';
import { lineOf } from '../../support/line-of.js';

let holder: ChildProcess | null = null;
let standIn: ProcIdentity | null = null;
afterEach(async () => {
  // A test that failed before its SIGKILL leaves the stand-in up, and "done" ends the holder
  // quietly without ending what is below it: the stand-in first, by identity.
  if (standIn) signalIdentity(standIn, 'SIGKILL');
  standIn = null;
  // The holder then ends itself and reaps everything below it on "done" (or on end of file).
  if (holder && holder.exitCode === null && holder.signalCode === null) {
    const gone = new Promise((resolve) => holder!.once('exit', resolve));
    holder.stdin!.end('done\n');
    await gone;
  }
  holder = null;
});

describe('the stand-in', () => {
  it('reports its server exit status and leaves the zombie for the holder to reap after the drill', async () => {
    holder = startSpareHolder(STAND_IN_COMMAND, STAND_IN_FDS)!;
    expect(holder).not.toBeNull();
    const stdio = holder.stdio as unknown as Readable[];
    const reports = stdio[6];
    const holderOut = stdio[1];
    const self = lineOf(reports, /^self (\d+)$/);
    const spawned = lineOf(reports, /^spawned (\d+)$/);
    const exit = lineOf(reports, /^exit (\S+) (\S+)$/);
    // A server that exits 7 at once.
    holder.stdin!.write(goLine('', '', '', { PATH: process.env.PATH ?? '/usr/bin:/bin' }, [process.cwd(), 'same', '0', '', '--', 'sh', '-c', 'exit 7']));
    standIn = identify(Number((await self)[1]))!;
    const serverPid = Number((await spawned)[1]);
    expect((await exit).slice(1)).toEqual(['7', '-']);

    // Reported, and still a zombie of the stand-in, with its status readable by the observer.
    const asZombie = readStat(serverPid);
    expect(asZombie?.state).toBe('Z');
    expect(asZombie?.ppid).toBe(standIn.pid);
    expect(decodeWaitStatus(asZombie!.exitCode)).toEqual({ code: 7, signal: null });

    // The crash's SIGKILL: the zombie goes to the holder (the subreaper), which keeps it.
    const standInExit = lineOf(holderOut, /^exit /);
    expect(signalIdentity(standIn, 'SIGKILL')).toBe('sent');
    await standInExit;
    const underHolder = readStat(serverPid);
    expect(underHolder?.state).toBe('Z');
    expect(underHolder?.ppid).toBe(holder.pid);
    expect(decodeWaitStatus(underHolder!.exitCode)).toEqual({ code: 7, signal: null });

    // The drill is over: the holder reaps it and ends.
    const server = { pid: serverPid, startTime: asZombie!.startTime };
    const gone = new Promise((resolve) => holder!.once('exit', resolve));
    holder.stdin!.end('done\n');
    await gone;
    expect((await pollExit(server, { timeoutMs: 5000 }))?.how).toBe('gone');
  });
});
