/**
 * The holder reaps every child before it exits. A process leaves its cgroup (cgroup_exit) before
 * it becomes a zombie (exit_notify), so the harness, which reads the drill cgroup's members, can
 * tell the holder "done" while an orphan of the drill is between the two: a holder that reaped
 * only the zombies there were and exited left that process to init, with its exit status and its
 * CPU (test/bench/cpu-split.e2e.test.ts once saw a drill's cgroup use 190 ms more than the
 * processes its worker reaped). Shown here with an orphan that is still alive at "done" and ends
 * when the test says so: the holder reports that it is reaping, and exits only once it has reaped
 * the orphan. A holder without that wait exits first, and the orphan outlives it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createReadStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holderCommand } from '../../../harness/drill/holder/holder.js';
import { signalIdentity } from '../../../harness/containment/signal.js';
import { identify, readStat, type ProcIdentity } from '../../../harness/observe/index.js';
import { lineOf } from '../../support/line-of.js';
import { tempDir } from '../../support/temp-dir.js';

let holder: ChildProcess | null = null;
let orphanId: ProcIdentity | null = null;
afterEach(async () => {
  // A test that failed with the orphan up ends it, by identity; then the holder, told "done", exits.
  if (orphanId) signalIdentity(orphanId, 'SIGKILL');
  orphanId = null;
  if (holder && holder.exitCode === null && holder.signalCode === null) {
    const gone = new Promise((resolve) => holder!.once('exit', resolve));
    holder.stdin!.end('done\n');
    await gone;
  }
  holder = null;
});

describe('the holder at the end of a drill', () => {
  it('reaps an orphan that is still alive at "done" before it exits, saying so', async () => {
    const dir = tempDir('crash-drill-holder-reaps-');
    const fifo = join(dir, 'fifo');
    const pidFifo = join(dir, 'orphan.pid');
    expect(spawnSync('mkfifo', [fifo, pidFifo]).status).toBe(0);
    // The orphan's pid, as it writes it (the client's exit does not wait for it).
    const pidLine = lineOf(createReadStream(pidFifo), /^(\d+)$/);
    // The client starts an orphan-to-be that writes its pid and waits on the fifo, and exits: the orphan goes to the holder, the subreaper.
    const script = `sh -c 'echo $$ > "$1"; read line < "$2"' orphan ${JSON.stringify(pidFifo)} ${JSON.stringify(fifo)} & exit 0`;
    const [perl, args] = holderCommand('', ['sh', '-c', script])!;
    holder = spawn(perl, args, { stdio: ['pipe', 'pipe', 'inherit', 'ignore', 'ignore'] });
    const out = holder.stdout!;
    const exited = lineOf(out, /^exit 0 /);
    expect(await exited).not.toBeNull();

    const orphan = Number((await pidLine)[1]);
    orphanId = identify(orphan);
    expect(orphanId).not.toBeNull();
    expect(readStat(orphan)?.ppid).toBe(holder.pid);

    const reaping = lineOf(out, /^reaping (\d+)$/);
    const holderExit = new Promise<void>((resolve) => holder!.once('exit', () => resolve()));
    holder.stdin!.write('done\n');
    // The holder waits: it says so, and has not exited. A holder that did not wait exits, and the stream ends with no such line (lineOf rejects).
    expect((await reaping)[1]).toBe('1');
    expect(holder.exitCode).toBeNull();
    expect(readStat(orphan)?.ppid).toBe(holder.pid);
    // The orphan's line: it ends, and the holder with it.
    writeFileSync(fifo, 'go\n');
    await holderExit;
    expect(holder.exitCode).toBe(0);
    // Reaped by the holder: gone from /proc the moment the holder is gone.
    expect(readStat(orphan)).toBeNull();
    orphanId = null;
  });
});
