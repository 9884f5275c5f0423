/**
 * The in-process client's holders (holder.pl, `--wait`): a holder started before its
 * drill is known, so that perl's start, the prctl and the stand-in's compile are done by the
 * time a drill needs its client. A drill then writes one line (holder.goLine()) and its server
 * is exec'd a few milliseconds later, instead of after the 40 to 90 ms a holder takes to start
 * here. Every in-process drill gets its holder this way: the run's spare (HolderPool), or one
 * started at once (startSpareHolder) where there is no pool or no spare. A run keeps at most
 * `size` spares while drills are still to come; each one taken is replaced while more drills
 * remain, and the ones left over are ended with the run (their watchdog sees "done", or end of
 * file if the harness died: with nothing below them, they exit).
 *
 * A spare carries no drill marker and no drill's environment: both come with its go line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { spareHolderCommand } from './holder.js';

/** The in-process client's pipes: the control pipe, reports, stderr, then the server's stdin, stdout, stderr and the stand-in's reports. */
export const IN_PROCESS_STDIO = ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] as const;

/**
 * Starts one holder that waits for its go line (holder.goLine()), or null where there can be
 * none. The in-process client's only way to a holder: taken from the run's pool, or started now.
 */
export function startSpareHolder(command: string[], clientOnlyFds: string, fds: Readonly<Record<number, number>> = {}): ChildProcess | null {
  const held = spareHolderCommand(command, clientOnlyFds);
  if (held === null) return null;
  const [perl, args] = held;
  // Its own process group, like every holder (detached): a signal to the harness's group does not reach it.
  // Its environment is only PATH: the client's comes with the go line.
  // `fds`: descriptors given in place of pipes (a server's real pipes: harness/shared/fifo-stdio.ts).
  const stdio = IN_PROCESS_STDIO.map((kind, i) => fds[i] ?? kind);
  const spare = spawn(perl, args, { detached: true, stdio, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  spare.on('error', () => {}); // a failed start: take() skips it; a drill's client sees the error and the exit
  // A holder that died before its go line: the write fails, and the drill sees its client gone.
  spare.stdin?.on('error', () => {});
  // Nobody reads its pipes until a drill has it; its few report lines wait in the pipe.
  return spare;
}

export class HolderPool {
  private readonly spares: ChildProcess[] = [];
  private closed = false;
  private refill = false;

  /**
   * @param command the part of the client's command known in advance (the stand-in's `-e <code>`)
   * @param clientOnlyFds the descriptors the holder closes in itself once its client runs
   * @param remaining how many drills may still take one
   * @param size how many spares to keep ready at most
   */
  constructor(
    private readonly command: string[],
    private readonly clientOnlyFds: string,
    private remaining: number,
    private readonly size = 1,
  ) {
    this.fill();
  }

  /**
   * A started spare, or null (none ready, or no holder here); a replacement is started while
   * drills remain, in a later turn: Node's spawn holds this process for 10 to 25 ms here, and the
   * caller's go line, which starts its server, must not wait behind it.
   */
  take(): ChildProcess | null {
    if (this.remaining > 0) this.remaining--;
    let spare: ChildProcess | undefined;
    while ((spare = this.spares.shift()) !== undefined) {
      // One that died meanwhile (killed from outside) is no use: the next, or a fresh start.
      if (spare.exitCode === null && spare.signalCode === null && spare.stdin?.writable) break;
    }
    if (!this.refill) {
      this.refill = true;
      setImmediate(() => {
        this.refill = false;
        this.fill();
      });
    }
    return spare ?? null;
  }

  /** Ends the spares no drill took, and waits (briefly) for them to go. */
  async close(): Promise<void> {
    this.closed = true;
    const left = this.spares.splice(0);
    await Promise.all(
      left.map(
        (spare) =>
          new Promise<void>((resolve) => {
            if (spare.exitCode !== null || spare.signalCode !== null) return resolve();
            const timer = setTimeout(resolve, 2_000);
            spare.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            spare.stdin?.end('done\n');
          }),
      ),
    );
  }

  private fill(): void {
    while (!this.closed && this.spares.length < Math.min(this.size, this.remaining)) {
      const spare = startSpareHolder(this.command, this.clientOnlyFds);
      if (spare === null) return;
      this.spares.push(spare);
    }
  }
}
