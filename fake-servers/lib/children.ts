/**
 * The children a fake server started, and how it ends them.
 *
 * Signalling goes through ChildProcess.kill(), which is safe against pid reuse: the pid cannot
 * be recycled until Node reaps the child, and once reaped Node drops the handle and kill() is a
 * no-op. So the (pid, start time) identity holds here without reading /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { HELPER_SCRIPT } from './paths.js';
import type { Log } from './log.js';

export const CHILD_KILL_GRACE_MS = 1000;

/** Where a helper runs relative to the server: the group and session a client's kill reaches. */
export type HelperPlacement = 'same-group' | 'own-group' | 'own-session';

export class HelperStartError extends Error {
  readonly code = 'FAKE_HELPER_START_FAILED';
}

export class ChildTracker {
  private readonly live = new Map<ChildProcess, Promise<void>>();

  constructor(private readonly log: Log) {}

  /**
   * Starts a long-lived helper synchronously (the caller must not await before this), in the
   * server's process group, in a group of its own (a job-control shell's pipeline, a tool that
   * calls setpgid) or in a session of its own (`detached`, which is setsid in Node).
   */
  spawnHelper(placement: HelperPlacement = 'same-group', holdsStdin = false): number | Promise<number> {
    // stdio 'ignore': a helper that held the server's stdout or stderr pipe would keep the
    // harness waiting for EOF on it and blur what the server itself did. `holdsStdin`: it keeps
    // the server's stdin open (never reading it), as a child spawned with stdio inherited does.
    if (placement === 'own-group') return this.spawnInOwnGroup();
    const child = spawn(process.execPath, [HELPER_SCRIPT], {
      stdio: [holdsStdin ? 'inherit' : 'ignore', 'ignore', 'ignore'],
      detached: placement === 'own-session',
    });
    this.track(child);
    // No pid means the spawn failed; the 'error' event follows asynchronously.
    if (child.pid === undefined) throw new HelperStartError(`could not start ${HELPER_SCRIPT}`);
    return child.pid;
  }

  /**
   * Node has no setpgid: perl (perl-base is essential on Debian) calls it, says so on fd 3 and
   * execs the helper in place, so the pid answered is the helper's. The pid is answered only
   * once the helper leads its group: a client's killpg of the server's group right after the
   * answer must not find it still there.
   */
  private spawnInOwnGroup(): Promise<number> {
    const child = spawn(
      'perl',
      [
        '-e',
        'setpgrp(0, 0) or die "setpgid: $!"; open(my $s, ">&=", 3) or die; syswrite($s, "g"); close $s; exec { $ARGV[0] } @ARGV or die "exec: $!"',
        process.execPath,
        HELPER_SCRIPT,
      ],
      { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] },
    );
    this.track(child);
    if (child.pid === undefined) throw new HelperStartError(`could not start ${HELPER_SCRIPT}`);
    const pid = child.pid;
    const placed = child.stdio[3] as NodeJS.ReadableStream;
    return new Promise((resolve, reject) => {
      let said = '';
      placed.on('data', (chunk: Buffer) => (said += chunk.toString()));
      placed.on('end', () => (said === 'g' ? resolve(pid) : reject(new HelperStartError(`the helper (pid ${pid}) did not lead a group of its own`))));
    });
  }

  track(child: ChildProcess): void {
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        this.live.delete(child);
        resolve();
      });
      child.once('error', (error) => {
        this.log(`child failed to start: ${error.message}`);
        this.live.delete(child);
        resolve();
      });
    });
    this.live.set(child, exited);
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** SIGTERM every live child, wait for its exit, SIGKILL whatever is left after the grace. */
  async endAll(graceMs = CHILD_KILL_GRACE_MS): Promise<void> {
    // Loop: a handler that was already dispatched may add a child while we wait.
    while (this.live.size > 0) {
      await Promise.all([...this.live].map(([child, exited]) => this.endOne(child, exited, graceMs)));
    }
  }

  private async endOne(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.log(`child ${child.pid} ignored SIGTERM for ${graceMs} ms: SIGKILL`);
      child.kill('SIGKILL');
    }, graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** Resolves with the first line a child writes on stdout (used to learn a daemon's pid). */
export function firstStdoutLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdout = child.stdout;
    if (!stdout) {
      reject(new Error('child has no stdout pipe'));
      return;
    }
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end).trim());
    });
    // 'close' comes after both exit and the end of stdio: no line by then means none will come.
    child.once('close', () => reject(new Error(`child ${child.pid} closed stdout without a line`)));
    child.once('error', reject);
  });
}
