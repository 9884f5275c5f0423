/**
 * The in-process client's holders (holder.pl, `--wait`), started before their drill is known, so
 * perl's start and the stand-in's compile are done when a drill writes its go line
 * (docs/measurements.md). A spare carries no drill marker and no drill's environment: both come
 * with the go line. Spares left over end with the run ("done", or EOF if the harness died).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { spareHolderCommand } from './holder.js';

/** The in-process client's pipes: the control pipe, reports, stderr, then the server's stdin, stdout, stderr and the stand-in's reports. */
export const IN_PROCESS_STDIO = ['pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'] as const;

/** Starts one holder that waits for its go line (holder.goLine()), or null where there can be none. */
export function startSpareHolder(command: string[], clientOnlyFds: string, fds: Readonly<Record<number, number>> = {}): ChildProcess | null {
  const held = spareHolderCommand(command, clientOnlyFds);
  if (held === null) return null;
  const [perl, args] = held;
  // Detached, so a signal to the harness's group does not reach it; the client's environment comes with the go line.
  const stdio = IN_PROCESS_STDIO.map((kind, i) => fds[i] ?? kind);
  const spare = spawn(perl, args, { detached: true, stdio, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
  spare.on('error', () => {}); // a failed start: take() skips it; a drill's client sees the error and the exit
  spare.stdin?.on('error', () => {}); // died before its go line: the drill sees its client gone
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

  /** A started spare, or null; its replacement starts in a later turn, so the caller's go line does not wait behind a spawn. */
  take(): ChildProcess | null {
    if (this.remaining > 0) this.remaining--;
    let spare: ChildProcess | undefined;
    while ((spare = this.spares.shift()) !== undefined) {
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
